"""A tiny template engine: {{ name }}, {{ name|filter }}, {% for x in xs %}...{% endfor %}."""
import html
import logging
import re
import warnings

log = logging.getLogger("textkit.template")

FILTERS = {
    "upper": str.upper,
    "lower": str.lower,
    "title": str.title,
    "strip": str.strip,
    "escape": html.escape,
    "length": lambda v: str(len(v)),
}

_TOKEN = re.compile(r"{{\s*(.*?)\s*}}|{%\s*(.*?)\s*%}", re.S)


class TemplateError(Exception):
    pass


def _lookup(name, context):
    value = context
    for part in name.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif hasattr(value, part):
            value = getattr(value, part)
        else:
            raise TemplateError("undefined: %s" % name)
    return value


def _expr(text, context):
    name, *filters = [p.strip() for p in text.split("|")]
    value = _lookup(name, context)
    for f in filters:
        if f not in FILTERS:
            raise TemplateError("unknown filter: %s" % f)
        value = FILTERS[f](str(value) if f != "length" else value)
    return str(value)


def render(template, context=None, strict=True):
    """Render a template.

    >>> render("Hello {{ name|title }}!", {"name": "ada"})
    'Hello Ada!'
    >>> render("{% for x in xs %}[{{ x }}]{% endfor %}", {"xs": [1, 2]})
    '[1][2]'
    """
    context = dict(context or {})
    out = []
    pos = 0
    stack = []  # (loop var, items, body start index in out, source pos)
    matches = list(_TOKEN.finditer(template))
    i = 0
    while i < len(matches):
        m = matches[i]
        out.append(template[pos:m.start()])
        pos = m.end()
        expr, stmt = m.group(1), m.group(2)
        if expr is not None:
            try:
                out.append(_expr(expr, context))
            except TemplateError:
                if strict:
                    raise
                log.warning("left undefined: %s", expr)
                out.append("")
        elif stmt.startswith("for "):
            var, _, seq = stmt[4:].partition(" in ")
            items = list(_lookup(seq.strip(), context))
            end = _find_end(matches, i)
            body = template[m.end():matches[end].start()]
            for item in items:
                out.append(render(body, dict(context, **{var.strip(): item}), strict))
            pos = matches[end].end()
            i = end
        elif stmt == "endfor":
            raise TemplateError("endfor without for")
        else:
            warnings.warn("unknown statement %r ignored" % stmt, SyntaxWarning)
        i += 1
    if stack:
        raise TemplateError("unclosed for")
    out.append(template[pos:])
    return "".join(out)


def _find_end(matches, start):
    depth = 0
    for j in range(start + 1, len(matches)):
        stmt = matches[j].group(2)
        if stmt is None:
            continue
        if stmt.startswith("for "):
            depth += 1
        elif stmt == "endfor":
            if depth == 0:
                return j
            depth -= 1
    raise TemplateError("unclosed for")
