# Pattern: module-level aliases `handler = _impl` (in compat.py and here), called via the alias.
# Modelled on posixpath/ntpath and six/compat modules exporting public aliases of private functions.
import compat
from compat import normpath


def _default_error_handler(msg):
    return "error: " + msg


handle_error = _default_error_handler


def resolve(base, rel):
    joined = compat.join(base, rel)
    if ".." in rel:
        return normpath("/" + joined)
    return handle_error("no parent segment in " + rel)


print(resolve("srv/www", "../etc"))
print(resolve("srv/www", "index.html"))
