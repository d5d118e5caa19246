# Pattern: a callback forwarded through *args / **kwargs wrappers before being invoked.
# Modelled on threading.Thread(target=..., args=..., kwargs=...) and executor.submit(fn, *args, **kwargs).


def run_task(fn, *args, **kwargs):
    return fn(*args, **kwargs)


def submit(*args, **kwargs):
    # The callable itself travels inside *args.
    return run_task(*args, **kwargs)


def schedule(**options):
    # The callable travels inside **kwargs under the key "target".
    target = options.pop("target")
    return submit(target, *options.pop("args", ()), **options)


def fetch_page(url, retries=0):
    return "fetched %s (retries=%d)" % (url, retries)


def resize_image(width, height):
    return "resized to %dx%d" % (width, height)


print(submit(fetch_page, "http://example.invalid/", retries=2))
print(schedule(target=resize_image, args=(640, 480)))
