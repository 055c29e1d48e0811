def shout(text):
    """The text in capitals, with an exclamation mark."""
    return text.upper() + "!"
