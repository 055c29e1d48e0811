import pytest

from textkit import camel_to_snake, snake_to_camel, title_case

CAMEL = [
    ("HTTPResponseCode", "http_response_code"),
    ("getX", "get_x"),
    ("simple", "simple"),
    ("already_snake", "already_snake"),
    ("XMLHttpRequest", "xml_http_request"),
    ("version2Update", "version2_update"),
    ("ABC", "abc"),
    ("", ""),
]


@pytest.mark.parametrize("camel, snake", CAMEL, ids=[c or "empty" for c, _ in CAMEL])
def test_camel_to_snake(camel, snake):
    assert camel_to_snake(camel) == snake


@pytest.mark.parametrize("snake, camel", [
    ("http_response_code", "HttpResponseCode"),
    ("a", "A"),
    ("__private_name", "PrivateName"),
    ("trailing_", "Trailing"),
    ("", ""),
])
def test_snake_to_camel(snake, camel):
    assert snake_to_camel(snake) == camel


def test_lower_camel():
    assert snake_to_camel("get_x_value", upper_first=False) == "getXValue"


@pytest.mark.parametrize("text, expected", [
    ("the lord of the rings", "The Lord of the Rings"),
    ("a tale of two cities", "A Tale of Two Cities"),
    ("of mice and men", "Of Mice and Men"),
    ("what it is for", "What It Is For"),
    ("iPhone vs android", "IPhone vs Android"),
])
def test_title_case(text, expected):
    assert title_case(text) == expected


@pytest.mark.parametrize("name", ["HttpServer", "parseJSONResponse", "a", "UserID"])
def test_round_trip_is_stable(name):
    once = camel_to_snake(name)
    assert camel_to_snake(snake_to_camel(once)) == once
