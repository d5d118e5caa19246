# Pattern: nested functions calling each other (and a sibling defined later)
# inside an enclosing function. Modelled on textwrap/shlex-style tokenizers
# that define local helpers over shared local state.


def tokenize(source):
    tokens = []

    def emit(kind, text):
        tokens.append((kind, text))

    def read_word(start):
        end = start
        while end < len(source) and source[end].isalnum():
            end += 1
        emit(classify(source[start:end]), source[start:end])
        return end

    def classify(word):
        return "NUM" if word.isdigit() else "NAME"

    def scan():
        pos = 0
        while pos < len(source):
            ch = source[pos]
            if ch.isalnum():
                pos = read_word(pos)
            else:
                if not ch.isspace():
                    emit("OP", ch)
                pos += 1

    scan()
    return tokens


print(tokenize("x = y + 42"))
