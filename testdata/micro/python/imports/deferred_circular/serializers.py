def serialize_user(user):
    return {"name": user.display(), "kind": type(user).__name__}


def load_user(data):
    from models import User  # deferred: models imports this module at import time
    return User(data["name"])
