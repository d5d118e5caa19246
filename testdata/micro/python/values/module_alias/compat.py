"""Compatibility shims: public names are aliases of private implementations."""


def _posix_join(*parts):
    return "/".join(p.strip("/") for p in parts if p)


def _normalize_impl(path):
    segments = []
    for seg in path.split("/"):
        if seg == "..":
            if segments:
                segments.pop()
        elif seg and seg != ".":
            segments.append(seg)
    return "/" + "/".join(segments)


join = _posix_join
normpath = _normalize_impl
