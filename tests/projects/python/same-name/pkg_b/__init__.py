from .util import describe

__all__ = ["describe"]
