# Pattern: a single name rebound to different functions over time; each call hits the current binding.
# Modelled on state machines such as html.parser / tokenizers that keep `self.state = self._state_x`.


def state_data(ch):
    return state_tag_open if ch == "<" else state_data


def state_tag_open(ch):
    return state_tag_name if ch.isalpha() else state_data


def state_tag_name(ch):
    return state_data if ch == ">" else state_tag_name


def tokenize(text):
    state = state_data
    visited = []
    for ch in text:
        state = state(ch)
        visited.append(state.__name__)
    return visited


print(tokenize("a<b>c"))
