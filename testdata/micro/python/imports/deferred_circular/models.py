import serializers


class User:
    def __init__(self, name):
        self.name = name

    def to_dict(self):
        return serializers.serialize_user(self)

    def display(self):
        return self.name.title()
