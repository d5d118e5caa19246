# Pattern: cooperative `super().save()` through a diamond: each super() call goes
# to the next class in the MRO of the instance (Timestamped -> Validated -> Model),
# not to the textual base. Modelled on django Model.save() overrides in mixins.


class Model:
    def __init__(self, **fields):
        self.fields = fields
        self.trail = []

    def save(self):
        self.trail.append("Model.save")
        return self.trail


class Timestamped(Model):
    def save(self):
        self.fields["updated"] = "2024-01-01"
        self.trail.append("Timestamped.save")
        return super().save()


class Validated(Model):
    def save(self):
        self.validate()
        self.trail.append("Validated.save")
        return super().save()

    def validate(self):
        if not self.fields.get("title"):
            raise ValueError("title required")


class Article(Timestamped, Validated):
    def save(self):
        self.trail.append("Article.save")
        return super().save()


print(Article(title="MRO").save())
