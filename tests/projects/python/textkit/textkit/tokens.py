"""A tokenizer for simple arithmetic and identifiers."""
import re
from typing import NamedTuple


class Token(NamedTuple):
    kind: str
    text: str
    pos: int


_SPEC = [
    ("NUMBER", r"\d+(?:\.\d+)?"),
    ("NAME", r"[A-Za-z_][A-Za-z0-9_]*"),
    ("OP", r"\*\*|[-+*/%()=<>]"),
    ("STRING", r'"(?:[^"\\]|\\.)*"'),
    ("SKIP", r"[ \t]+"),
    ("MISMATCH", r"."),
]
_MASTER = re.compile("|".join("(?P<%s>%s)" % pair for pair in _SPEC))


class TokenizeError(ValueError):
    def __init__(self, char, pos):
        super().__init__("unexpected %r at %d" % (char, pos))
        self.pos = pos


def tokenize(text):
    """Tokens of `text`, whitespace dropped.

    >>> [t.text for t in tokenize("x = 3 ** 2")]
    ['x', '=', '3', '**', '2']
    >>> tokenize("1 + 2")[1]
    Token(kind='OP', text='+', pos=2)
    """
    out = []
    for m in _MASTER.finditer(text):
        kind = m.lastgroup
        if kind == "SKIP":
            continue
        if kind == "MISMATCH":
            raise TokenizeError(m.group(), m.start())
        out.append(Token(kind, m.group(), m.start()))
    return out


def evaluate(text, names=None):
    """Evaluate + - * / ** and parentheses over numbers and names.

    >>> evaluate("2 + 3 * 4")
    14
    >>> evaluate("(2 + 3) * 4")
    20
    >>> evaluate("2 ** 3 ** 2")
    512
    >>> evaluate("rate * 100", {"rate": 0.5})
    50.0
    """
    tokens = tokenize(text)
    names = names or {}
    pos = 0

    def peek():
        return tokens[pos] if pos < len(tokens) else None

    def take(expected=None):
        nonlocal pos
        tok = peek()
        if tok is None or (expected is not None and tok.text != expected):
            raise SyntaxError("expected %s at token %d" % (expected or "a value", pos))
        pos += 1
        return tok

    def atom():
        tok = take()
        if tok.text == "(":
            value = expr()
            take(")")
            return value
        if tok.text == "-":
            return -atom()
        if tok.kind == "NUMBER":
            return float(tok.text) if "." in tok.text else int(tok.text)
        if tok.kind == "NAME":
            if tok.text not in names:
                raise NameError(tok.text)
            return names[tok.text]
        raise SyntaxError("unexpected %r" % tok.text)

    def power():
        base = atom()
        if peek() is not None and peek().text == "**":
            take()
            return base ** power()
        return base

    def term():
        value = power()
        while peek() is not None and peek().text in ("*", "/", "%"):
            op = take().text
            rhs = power()
            if op == "*":
                value = value * rhs
            elif op == "/":
                value = value / rhs
            else:
                value = value % rhs
        return value

    def expr():
        value = term()
        while peek() is not None and peek().text in ("+", "-"):
            op = take().text
            rhs = term()
            value = value + rhs if op == "+" else value - rhs
        return value

    result = expr()
    if pos != len(tokens):
        raise SyntaxError("trailing input at token %d" % pos)
    return result
