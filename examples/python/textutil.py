"""Text helpers (the failing Python example: slugify has a bug greenlight points at)."""


def slugify(title):
    words = title.lower().split()
    return "_".join(words)  # bug: slugs use "-"


def initials(name):
    return "".join(part[0].upper() for part in name.split())
