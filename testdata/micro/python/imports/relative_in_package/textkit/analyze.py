from . import util
from .util import helper
from .filters.stopwords import drop_stopwords


def keywords(text):
    words = drop_stopwords(text)
    return helper(words)


def summary(text):
    clean = util.normalize(text)
    return f"{len(clean.split())} words, keywords={keywords(text)}"
