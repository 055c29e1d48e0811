"""Slugs for titles."""


def slugify(title):
    words = title.lower().split()
    return "_".join(words)
