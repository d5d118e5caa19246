# Pattern: a function returns a class (chosen or created at runtime); the caller instantiates it.
# Modelled on collections.namedtuple / dataclasses.make_dataclass and django's get_user_model().


class User:
    def __init__(self, name):
        self.name = name

    def display(self):
        return "user " + self.name


class AdminUser(User):
    def display(self):
        return "admin " + self.name


def get_user_model(settings):
    if settings.get("AUTH_USER_MODEL") == "admin":
        return AdminUser
    return User


def make_record_class(fields):
    class Record:
        def __init__(self, *values):
            self.__dict__.update(zip(fields, values))

        def as_tuple(self):
            return tuple(getattr(self, f) for f in fields)

    return Record


model = get_user_model({"AUTH_USER_MODEL": "admin"})
print(model("root").display())
print(get_user_model({})("guest").display())
Row = make_record_class(("id", "email"))
print(Row(1, "a@example.invalid").as_tuple())
