"""Dates for people: "3 days ago", "tomorrow", due dates over business days."""
import datetime as dt

from ._i18n import gettext

HOLIDAYS = {
    (1, 1),    # New Year's Day
    (5, 1),    # Labour Day
    (12, 25),  # Christmas Day
    (12, 26),  # Boxing Day
}


def _now():
    return dt.datetime.now()


def naturaldelta(value, months=True):
    """A timedelta (or seconds) without a direction: "a moment", "2 hours", "3 months".

    >>> naturaldelta(dt.timedelta(seconds=1))
    'a second'
    >>> naturaldelta(dt.timedelta(days=2))
    '2 days'
    >>> naturaldelta(dt.timedelta(days=400))
    '1 year, 1 month'
    """
    delta = value if isinstance(value, dt.timedelta) else dt.timedelta(seconds=value)
    seconds = abs(int(delta.total_seconds()))
    days = seconds // 86400
    years, days = divmod(days, 365)
    num_months = int(days // 30.5)

    if not years and days < 1:
        if seconds == 0:
            return "a moment"
        if seconds == 1:
            return "a second"
        if seconds < 60:
            return "%d seconds" % seconds
        if 60 <= seconds < 120:
            return "a minute"
        if 120 <= seconds < 3600:
            return "%d minutes" % (seconds // 60)
        if 3600 <= seconds < 3600 * 2:
            return "an hour"
        return "%d hours" % (seconds // 3600)
    if years == 0:
        if days == 1:
            return "a day"
        if not months:
            return "%d days" % days
        if not num_months:
            return "%d days" % days
        if num_months == 1:
            return "a month"
        return "%d months" % num_months
    if years == 1:
        if not num_months and not days:
            return "a year"
        if not num_months:
            return "1 year, %d day%s" % (days, "" if days == 1 else "s")
        if months:
            if num_months == 1:
                return "1 year, 1 month"
            return "1 year, %d months" % num_months
        return "1 year, %d days" % days
    return "%d years" % years


def naturaltime(value, future=False):
    """A moment relative to now: "3 minutes ago", "2 days from now".

    >>> naturaltime(dt.timedelta(seconds=0))
    'now'
    """
    now = _now()
    if isinstance(value, dt.datetime):
        delta = now - value
    else:
        delta = value if isinstance(value, dt.timedelta) else dt.timedelta(seconds=value)
        if future:
            delta = -delta
    ago = "%s ago" if delta >= dt.timedelta(0) else "%s from now"
    text = naturaldelta(delta)
    if text == "a moment":
        return "now"
    return ago % text


def naturalday(value, fmt="%b %d"):
    """Today, yesterday, tomorrow, or the date formatted.

    >>> naturalday(dt.date(2007, 6, 5))
    'Jun 05'
    """
    if isinstance(value, dt.datetime):
        value = value.date()
    delta = value - _now().date()
    if delta.days == 0:
        return gettext("today")
    if delta.days == 1:
        return gettext("tomorrow")
    if delta.days == -1:
        return gettext("yesterday")
    return value.strftime(fmt)


def is_business_day(day):
    """Monday to Friday and not a fixed holiday.

    >>> is_business_day(dt.date(2024, 12, 25))
    False
    >>> is_business_day(dt.date(2024, 12, 27))
    True
    """
    return day.weekday() < 5 and (day.month, day.day) not in HOLIDAYS


def business_days_between(start, end):
    """Business days after `start` up to and including `end`.

    >>> business_days_between(dt.date(2024, 3, 1), dt.date(2024, 3, 8))
    5
    """
    if end < start:
        return -business_days_between(end, start)
    count = 0
    day = start
    while day < end:
        day += dt.timedelta(days=1)
        if is_business_day(day):
            count += 1
    return count


def due_date(issued, terms_days=30, business=False):
    """When an invoice issued on `issued` is due.

    >>> due_date(dt.date(2024, 1, 31))
    datetime.date(2024, 3, 1)
    >>> due_date(dt.date(2024, 12, 20), 3, business=True)
    datetime.date(2024, 12, 27)
    """
    if terms_days < 0:
        raise ValueError("terms cannot be negative")
    if not business:
        return issued + dt.timedelta(days=terms_days)
    day = issued
    remaining = terms_days
    while remaining > 0:
        day += dt.timedelta(days=1)
        if is_business_day(day):
            remaining -= 1
    return day


def days_overdue(due, today=None):
    """How many days past `due` (0 when not overdue)."""
    today = today or _now().date()
    return max((today - due).days, 0)
