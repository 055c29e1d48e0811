import datetime as dt

import pytest
from freezegun import freeze_time

from ledgerline import business_days_between, due_date, naturalday, naturaldelta
from ledgerline.dates import days_overdue, is_business_day, naturaltime

NOW = dt.datetime(2024, 3, 14, 12, 0, 0)


@pytest.mark.parametrize(
    "seconds, expected",
    [
        (0, "a moment"),
        (1, "a second"),
        (30, "30 seconds"),
        (59, "59 seconds"),
        (60, "a minute"),
        (119, "a minute"),
        (120, "2 minutes"),
        (3599, "59 minutes"),
        (3600, "an hour"),
        (7200, "2 hours"),
        (86399, "23 hours"),
        (86400, "a day"),
        (86400 * 2, "2 days"),
        (86400 * 31, "a month"),
        (86400 * 65, "2 months"),
        (86400 * 365, "a year"),
        (86400 * 366, "1 year, 1 day"),
        (86400 * 370, "1 year, 5 days"),
        (86400 * 400, "1 year, 1 month"),
        (86400 * 500, "1 year, 4 months"),
        (86400 * 365 * 3, "3 years"),
        (-7200, "2 hours"),
    ],
)
def test_naturaldelta(seconds, expected):
    assert naturaldelta(dt.timedelta(seconds=seconds)) == expected


def test_naturaldelta_accepts_seconds():
    assert naturaldelta(90) == "a minute"


@pytest.mark.parametrize("days, expected", [(40, "40 days"), (400, "1 year, 35 days")])
def test_naturaldelta_without_months(days, expected):
    assert naturaldelta(dt.timedelta(days=days), months=False) == expected


@freeze_time(NOW)
@pytest.mark.parametrize(
    "moment, expected",
    [
        (NOW, "now"),
        (NOW - dt.timedelta(seconds=30), "30 seconds ago"),
        (NOW - dt.timedelta(hours=3), "3 hours ago"),
        (NOW + dt.timedelta(days=2), "2 days from now"),
        (NOW - dt.timedelta(days=45), "a month ago"),
    ],
    ids=["now", "seconds", "hours", "future", "month"],
)
def test_naturaltime(moment, expected):
    assert naturaltime(moment) == expected


@freeze_time("2024-03-14")
class TestNaturalday:
    def test_today(self):
        assert naturalday(dt.date(2024, 3, 14)) == "today"

    def test_yesterday(self):
        assert naturalday(dt.date(2024, 3, 13)) == "yesterday"

    def test_tomorrow(self):
        assert naturalday(dt.datetime(2024, 3, 15, 23, 59)) == "tomorrow"

    def test_other_day(self):
        assert naturalday(dt.date(2024, 3, 20)) == "Mar 20"

    def test_format(self):
        assert naturalday(dt.date(2023, 1, 2), "%Y-%m-%d") == "2023-01-02"

    def test_german(self, german):
        assert naturalday(dt.date(2024, 3, 13)) == "gestern"


def test_naturalday_moves_with_the_clock():
    with freeze_time("2024-12-31") as frozen:
        assert naturalday(dt.date(2025, 1, 1)) == "tomorrow"
        frozen.tick(dt.timedelta(days=1))
        assert naturalday(dt.date(2025, 1, 1)) == "today"


@pytest.mark.parametrize(
    "day, expected",
    [
        (dt.date(2024, 3, 15), True),    # Friday
        (dt.date(2024, 3, 16), False),   # Saturday
        (dt.date(2024, 3, 17), False),   # Sunday
        (dt.date(2024, 12, 25), False),  # Christmas, a Wednesday
        (dt.date(2024, 12, 26), False),  # Boxing day
        (dt.date(2024, 12, 27), True),
        (dt.date(2025, 1, 1), False),    # New Year, a Wednesday
        (dt.date(2024, 5, 1), False),    # Labour day, a Wednesday
    ],
    ids=str,
)
def test_is_business_day(day, expected):
    assert is_business_day(day) is expected


@pytest.mark.parametrize(
    "start, end, expected",
    [
        (dt.date(2024, 3, 1), dt.date(2024, 3, 8), 5),
        (dt.date(2024, 3, 8), dt.date(2024, 3, 1), -5),
        (dt.date(2024, 3, 1), dt.date(2024, 3, 1), 0),
        (dt.date(2024, 3, 1), dt.date(2024, 3, 4), 1),
        (dt.date(2024, 12, 20), dt.date(2024, 12, 31), 5),
        (dt.date(2024, 1, 1), dt.date(2024, 12, 31), 258),
    ],
)
def test_business_days_between(start, end, expected):
    assert business_days_between(start, end) == expected


class TestDueDate:
    def test_calendar_days(self):
        assert due_date(dt.date(2024, 1, 31)) == dt.date(2024, 3, 1)

    def test_zero_terms(self):
        assert due_date(dt.date(2024, 1, 31), 0) == dt.date(2024, 1, 31)

    @pytest.mark.parametrize("issued, terms, expected", [
        (dt.date(2024, 12, 20), 3, dt.date(2024, 12, 27)),
        (dt.date(2024, 3, 15), 1, dt.date(2024, 3, 18)),
        (dt.date(2024, 3, 15), 10, dt.date(2024, 3, 29)),
        (dt.date(2024, 12, 31), 1, dt.date(2025, 1, 2)),
    ])
    def test_business_days(self, issued, terms, expected):
        assert due_date(issued, terms, business=True) == expected

    def test_negative_terms(self):
        with pytest.raises(ValueError, match="negative"):
            due_date(dt.date(2024, 1, 1), -1)


@freeze_time("2024-04-10")
def test_days_overdue_uses_today():
    assert days_overdue(dt.date(2024, 4, 1)) == 9
    assert days_overdue(dt.date(2024, 5, 1)) == 0


def test_days_overdue_explicit_today(epoch):
    assert days_overdue(epoch, today=dt.date(2024, 1, 31)) == 30


@pytest.mark.slow
def test_every_day_of_a_decade_round_trips():
    day = dt.date(2020, 1, 1)
    while day.year < 2030:
        assert business_days_between(day, due_date(day, 5, business=True)) == 5
        day += dt.timedelta(days=1)
