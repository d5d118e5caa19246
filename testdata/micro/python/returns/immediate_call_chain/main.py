# Pattern: calling a returned function immediately, `make()()` and `make()(x)()`.
# Modelled on decorator factories being applied inline, e.g. `lru_cache(maxsize=2)(fn)` and click's `option(...)(f)`.


def render_plain(text):
    return text


def render_bold(text):
    return "**" + text + "**"


def select_renderer(style):
    if style == "bold":
        return render_bold
    return render_plain


def curry_join(sep):
    def with_left(left):
        def with_right(right):
            return left + sep + right

        return with_right

    return with_left


print(select_renderer("bold")("title"))
print(select_renderer("plain")("body"))
print(curry_join(", ")("Doe")("Jane"))
