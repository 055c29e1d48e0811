"""Message catalogue: English only, but every user-facing word goes through here."""
import os

_CATALOGUES = {
    "en": {},
    "de": {
        "thousand": "Tausend", "million": "Million", "billion": "Milliarde",
        "and": "und", "today": "heute", "yesterday": "gestern", "tomorrow": "morgen",
    },
}


def active_language():
    """The language from LEDGERLINE_LANG (default English).

    >>> active_language() in _CATALOGUES
    True
    """
    lang = os.environ.get("LEDGERLINE_LANG", "en")
    return lang if lang in _CATALOGUES else "en"


def gettext(message):
    """Translate one word or phrase.

    >>> gettext("and")
    'and'
    """
    return _CATALOGUES[active_language()].get(message, message)


def thousands_separator():
    return os.environ.get("LEDGERLINE_THOUSANDS", ",")
