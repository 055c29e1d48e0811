"""Text utilities."""
from .case import camel_to_snake, snake_to_camel, title_case
from .slug import slugify
from .wrap import dedent_block, shorten, wrap

__all__ = ["camel_to_snake", "dedent_block", "shorten", "slugify", "snake_to_camel", "title_case", "wrap"]
