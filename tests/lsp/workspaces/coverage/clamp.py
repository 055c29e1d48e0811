"""Clamping."""


def clamp(x):
    """Return x limited to 0..100."""
    ...
