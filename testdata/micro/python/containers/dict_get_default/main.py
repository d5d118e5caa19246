# Pattern: `d.get(k, fallback)(...)` -- a dict lookup with a function default, called immediately.
# Modelled on http.client / email header parsing: `_parsers.get(name.lower(), _parse_generic)(value)`.


def parse_content_length(value):
    return int(value)


def parse_content_type(value):
    main, _, params = value.partition(";")
    return (main.strip(), params.strip())


def parse_generic(value):
    return value.strip()


HEADER_PARSERS = {
    "content-length": parse_content_length,
    "content-type": parse_content_type,
}


def parse_headers(raw):
    headers = {}
    for line in raw.splitlines():
        name, _, value = line.partition(":")
        key = name.lower()
        headers[key] = HEADER_PARSERS.get(key, parse_generic)(value)
    return headers


print(parse_headers("Content-Length: 12\nContent-Type: text/html; charset=utf-8\nServer: demo"))
