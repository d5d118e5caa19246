from ..util import normalize

STOP = ("the", "and")


def drop_stopwords(text):
    return [w for w in normalize(text).split() if w not in STOP]
