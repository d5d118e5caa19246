# Pattern: a generator that yields functions; the consumer iterates and calls each yielded callable.
# Modelled on pytest/unittest test collectors yielding test functions and django's system-check registry.


def check_database(config):
    return "db ok" if config.get("db") else "db missing"


def check_secret_key(config):
    return "secret ok" if len(config.get("secret", "")) >= 8 else "secret too short"


def check_debug(config):
    return "debug off" if not config.get("debug") else "debug on in production"


def collect_checks(deploy):
    yield check_database
    yield check_secret_key
    if deploy:
        yield check_debug


def run_checks(config, deploy):
    results = []
    for check in collect_checks(deploy):
        results.append(check(config))
    return results


print(run_checks({"db": "sqlite://", "secret": "abc", "debug": True}, deploy=True))
