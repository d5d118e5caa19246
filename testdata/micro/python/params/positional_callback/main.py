# Pattern: a function passed positionally as a parameter and called inside the callee (`g(f)`).
# Modelled on `map`-style helpers and re.sub(pattern, repl_func, text) invoking the repl callable.


def apply_to_lines(transform, text):
    out = []
    for line in text.splitlines():
        out.append(transform(line))
    return "\n".join(out)


def strip_comment(line):
    return line.split("#", 1)[0].rstrip()


def upper_keys(line):
    if "=" not in line:
        return line
    key, value = line.split("=", 1)
    return key.strip().upper() + "=" + value.strip()


def load_config(text):
    cleaned = apply_to_lines(strip_comment, text)
    return apply_to_lines(upper_keys, cleaned)


print(load_config("host = example # primary\nport=80"))
