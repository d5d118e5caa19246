# Pattern: `with obj as x:` implicitly calls __enter__ and __exit__ (also when the
# body raises); contextlib.contextmanager generator. Modelled on sqlite3 connection
# transactions and contextlib.suppress-style managers.
import contextlib


class Transaction:
    def __init__(self, db):
        self.db = db

    def __enter__(self):
        self.db.log.append("begin")
        return self

    def __exit__(self, exc_type, exc, tb):
        self.db.log.append("rollback" if exc_type else "commit")
        return exc_type is ValueError

    def execute(self, stmt):
        if stmt == "bad":
            raise ValueError(stmt)
        self.db.log.append(stmt)


class Database:
    def __init__(self):
        self.log = []

    def transaction(self):
        return Transaction(self)


@contextlib.contextmanager
def timed_section(db, name):
    db.log.append(f"start {name}")
    yield db
    db.log.append(f"end {name}")


def main():
    db = Database()
    with timed_section(db, "batch"):
        with db.transaction() as tx:
            tx.execute("insert 1")
        with db.transaction() as tx:
            tx.execute("bad")
    print(db.log)


main()
