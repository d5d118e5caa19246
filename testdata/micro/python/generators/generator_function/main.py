# Pattern: a plain generator function consumed by a for loop; the generator body calls helpers per item.
# Modelled on csv.reader / tokenize.generate_tokens producing parsed rows lazily.


def split_fields(line):
    return [f.strip() for f in line.split(",")]


def coerce(value):
    return int(value) if value.isdigit() else value


def read_rows(text):
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        row = []
        for field in split_fields(line):
            row.append(coerce(field))
        yield lineno, row


total = 0
for lineno, row in read_rows("# name,qty\napples, 3\n\npears, 5"):
    total += row[1]
print(total)
