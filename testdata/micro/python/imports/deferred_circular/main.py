# Pattern: circular imports made safe by deferring one side's import into a
# function body, and by module-attribute access (`serializers.serialize_user`).
# Modelled on django's model <-> serializer / signal modules.
import serializers


def roundtrip(data):
    user = serializers.load_user(data)
    return user.to_dict()


print(roundtrip({"name": "grace hopper"}))
