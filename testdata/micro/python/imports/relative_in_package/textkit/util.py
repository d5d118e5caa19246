def normalize(text):
    return " ".join(text.split()).lower()


def helper(words):
    return [w for w in words if len(w) > 2]
