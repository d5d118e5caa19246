# Pattern: loop variables over annotated iterables (`items: list[Widget]` then
# `for w in items: w.render()`), plus a dict-valued annotated attribute.
# Modelled on template/widget rendering as in django.forms BoundField lists.
from dataclasses import dataclass, field


@dataclass
class Widget:
    name: str
    value: str

    def render(self) -> str:
        return f"<input name={self.name!r} value={self.value!r}>"


@dataclass
class ErrorList:
    messages: list[str] = field(default_factory=list)

    def as_text(self) -> str:
        return "; ".join(self.messages) or "ok"


class Form:
    def __init__(self, data: dict[str, str]):
        self.widgets: list[Widget] = [Widget(k, v) for k, v in data.items()]
        self.errors: dict[str, ErrorList] = {"__all__": ErrorList()}

    def render(self, items: list[Widget]) -> str:
        parts = []
        for w in items:
            parts.append(w.render())
        return "\n".join(parts)

    def summary(self) -> str:
        lines = []
        for key, errs in self.errors.items():
            lines.append(f"{key}: {errs.as_text()}")
        return "\n".join(lines)


def main():
    form = Form({"user": "ada", "lang": "py"})
    print(form.render(form.widgets))
    print(form.summary())


main()
