import logging

import pytest

from textkit.template import FILTERS, TemplateError, render


class TestExpressions:
    def test_name(self, context):
        assert render("{{ name }}", context) == "ada lovelace"

    @pytest.mark.parametrize("flt, expected", [
        ("upper", "ADA LOVELACE"), ("title", "Ada Lovelace"), ("length", "12"), ("lower", "ada lovelace"),
    ])
    def test_filters(self, context, flt, expected):
        assert render("{{ name|%s }}" % flt, context) == expected

    def test_chain(self, context):
        assert render("{{ name | upper | length }}", context) == "12"

    def test_dotted(self, context):
        assert render("{{ user.email }}", context) == "ada@example.org"

    def test_escape(self):
        assert render("{{ x|escape }}", {"x": "<b>&</b>"}) == "&lt;b&gt;&amp;&lt;/b&gt;"

    def test_undefined_strict(self):
        with pytest.raises(TemplateError, match="undefined: nope"):
            render("{{ nope }}")

    def test_undefined_lenient_logs(self, caplog):
        with caplog.at_level(logging.WARNING, logger="textkit.template"):
            assert render("a{{ nope }}b", strict=False) == "ab"
        assert [r.getMessage() for r in caplog.records] == ["left undefined: nope"]

    def test_unknown_filter(self, context):
        with pytest.raises(TemplateError, match="unknown filter"):
            render("{{ name|reverse }}", context)


class TestLoops:
    def test_for(self, context):
        assert render("{% for i in items %}<{{ i }}>{% endfor %}", context) == "<tea><scones>"

    def test_nested(self):
        tpl = "{% for r in rows %}{% for c in r %}{{ c }}{% endfor %};{% endfor %}"
        assert render(tpl, {"rows": [[1, 2], [3]]}) == "12;3;"

    def test_loop_variable_does_not_leak(self):
        assert render("{% for x in xs %}{% endfor %}{{ x }}", {"xs": [1], "x": "outer"}) == "outer"

    def test_empty_sequence(self):
        assert render("a{% for x in xs %}{{ x }}{% endfor %}b", {"xs": []}) == "ab"

    def test_unclosed(self):
        with pytest.raises(TemplateError, match="unclosed"):
            render("{% for x in xs %}{{ x }}", {"xs": [1]})

    def test_stray_endfor(self):
        with pytest.raises(TemplateError, match="without for"):
            render("{% endfor %}")


def test_unknown_statement_warns():
    with pytest.warns(SyntaxWarning, match="unknown statement"):
        assert render("a{% if x %}b") == "ab"


def test_filters_are_callables():
    assert all(callable(f) for f in FILTERS.values())


def test_yaml_front_matter():
    yaml = pytest.importorskip("textkit_yaml_extension_not_installed")
    assert yaml


def test_json_context():
    json = pytest.importorskip("json")
    assert render("{{ a }}", json.loads('{"a": 1}')) == "1"


def test_filters_called_once_each(mocker):
    """pytest-mock's mocker fixture (python3-pytest-mock, an installed plugin)."""
    upper = mocker.patch.dict(FILTERS, {"upper": mocker.Mock(return_value="X")})
    assert render("{{ a|upper }}{{ b|upper }}", {"a": "1", "b": "2"}) == "XX"
    assert upper["upper"].call_count == 2


def test_logger_warning_spied(mocker):
    spy = mocker.spy(logging.getLogger("textkit.template"), "warning")
    render("{{ missing }}", strict=False)
    spy.assert_called_once_with("left undefined: %s", "missing")
