# Pattern: immediately-invoked lambdas `(lambda x: ...)(v)`, including one that calls a named function.
# Modelled on inline one-off computations in config loaders and test fixtures.


def env_lookup(name, default):
    fake_environ = {"APP_DEBUG": "1"}
    return fake_environ.get(name, default)


DEBUG = (lambda raw: raw in ("1", "true", "yes"))(env_lookup("APP_DEBUG", "0"))
WORKERS = (lambda: int(env_lookup("APP_WORKERS", "4")) * 2)()


def describe():
    return (lambda d, w: "debug=%s workers=%d" % (d, w))(DEBUG, WORKERS)


print(describe())
