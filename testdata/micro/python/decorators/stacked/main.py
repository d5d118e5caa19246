# Pattern: stacked decorators -- the outermost wrapper calls the next wrapper, which calls the original.
# Modelled on Flask views with `@app.route` + `@login_required` + `@cache`, and django's `@require_POST @csrf_exempt`.
import functools

SESSION = {"user": "alice"}


def login_required(view):
    @functools.wraps(view)
    def check_login(*args, **kwargs):
        if SESSION.get("user") is None:
            return "redirect:/login"
        return view(*args, **kwargs)

    return check_login


def cached(view):
    cache = {}

    @functools.wraps(view)
    def lookup_cache(key):
        if key not in cache:
            cache[key] = view(key)
        return cache[key]

    return lookup_cache


def to_html(view):
    def render(*args):
        return "<p>" + view(*args) + "</p>"

    return render


@to_html
@login_required
@cached
def profile(username):
    return "profile of " + username


print(profile("alice"))
print(profile("alice"))
