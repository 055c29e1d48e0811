"""Collected through python_files = check_*.py in pytest.ini."""
import pytest

from textkit.tokens import TokenizeError, evaluate, tokenize


@pytest.mark.parametrize("text, expected", [
    ("1 + 2", [("NUMBER", "1"), ("OP", "+"), ("NUMBER", "2")]),
    ("x=3.5", [("NAME", "x"), ("OP", "="), ("NUMBER", "3.5")]),
    ("a**b", [("NAME", "a"), ("OP", "**"), ("NAME", "b")]),
    ('say "hi there"', [("NAME", "say"), ("STRING", '"hi there"')]),
    ('"esc \\" quote"', [("STRING", '"esc \\" quote"')]),
    ("", []),
])
def test_tokenize(tokens_of, text, expected):
    assert tokens_of(text) == expected


def test_positions():
    assert [t.pos for t in tokenize("ab + 12")] == [0, 3, 5]


@pytest.mark.parametrize("text, pos", [("1 $ 2", 2), ("@", 0), ("ok ?", 3)])
def test_mismatch(text, pos):
    with pytest.raises(TokenizeError) as info:
        tokenize(text)
    assert info.value.pos == pos


@pytest.mark.parametrize("text, value", [
    ("2 + 3 * 4", 14),
    ("(2 + 3) * 4", 20),
    ("10 - 4 - 3", 3),
    ("2 ** 3 ** 2", 512),
    ("-3 + 5", 2),
    ("7 % 4", 3),
    ("1 / 4", 0.25),
    ("2 * (3 + (4 - 1))", 12),
    ("1.5 * 2", 3.0),
])
def test_evaluate(text, value):
    assert evaluate(text) == pytest.approx(value)


def test_names():
    assert evaluate("rate * hours", {"rate": 12.5, "hours": 8}) == 100.0


def test_unknown_name():
    with pytest.raises(NameError):
        evaluate("nope + 1")


@pytest.mark.parametrize("text", ["1 +", "(1 + 2", "1 2", ")"])
def test_syntax_errors(text):
    with pytest.raises(SyntaxError):
        evaluate(text)


def test_nesting(nested_expression):
    assert evaluate(nested_expression) == 3


def test_division_by_zero():
    with pytest.raises(ZeroDivisionError):
        evaluate("1 / 0")


@pytest.mark.xfail(raises=SyntaxError, reason="unary plus is not supported")
def test_unary_plus():
    assert evaluate("+1") == 1


@pytest.mark.xfail(raises=NameError, reason="wrong exception expected: stays a failure", strict=False)
def test_xfail_with_other_exception():
    evaluate("1 +")
