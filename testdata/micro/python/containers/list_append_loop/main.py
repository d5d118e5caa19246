# Pattern: a list filled with `.append(f)` (and `+=`), then looped over calling each element.
# Modelled on WSGI/django middleware chains and unittest's cleanup lists.


def strip_whitespace(request):
    request["path"] = request["path"].strip()
    return request


def add_trailing_slash(request):
    if not request["path"].endswith("/"):
        request["path"] += "/"
    return request


def lowercase_path(request):
    request["path"] = request["path"].lower()
    return request


def build_pipeline(append_slash):
    pipeline = []
    pipeline.append(strip_whitespace)
    if append_slash:
        pipeline.append(add_trailing_slash)
    pipeline += [lowercase_path]
    return pipeline


def process(request, pipeline):
    for step in pipeline:
        request = step(request)
    return request


print(process({"path": "  /Docs/Intro "}, build_pipeline(append_slash=True)))
