"""Geometry."""


def hypot(a, b):
    """The hypotenuse of a right triangle with legs a and b."""
    raise NotImplementedError
