import datetime as dt

import pytest

from ledgerline import Entry, Ledger, LedgerError, Money


def test_reads_every_entry(ledger):
    assert len(ledger) == 6


def test_accounts(ledger):
    assert ledger.accounts() == ["bank", "cash"]


@pytest.mark.parametrize(
    "account, expected",
    [("cash", "84.50"), ("bank", "604.01"), (None, "688.51")],
    ids=["cash", "bank", "all"],
)
def test_balance(ledger, account, expected):
    assert ledger.balance(account) == Money(expected)


def test_balance_until(ledger):
    assert ledger.balance("bank", until=dt.date(2024, 1, 31)) == Money("650.00")


def test_entries_stay_in_date_order(ledger):
    days = [e.day for e in ledger]
    assert days == sorted(days)


def test_add_out_of_order_keeps_order(ledger):
    ledger.add(Entry(dt.date(2024, 1, 6), "cash", Money("1")))
    assert [e.day.day for e in ledger][:3] == [5, 6, 7]


def test_same_day_keeps_insertion_order(ledger):
    same_day = [e.memo for e in ledger if e.day == dt.date(2024, 1, 10)]
    assert same_day == ["rent", "coffee"]


def test_between_is_half_open(ledger):
    got = ledger.between(dt.date(2024, 1, 7), dt.date(2024, 1, 10))
    assert [e.memo for e in got] == ["groceries", "salary"]


def test_tags(ledger):
    assert [e.memo for e in ledger.tagged("home")] == ["rent", "internet"]
    assert ledger.tagged("monthly")[0].amount == Money("-45.99")


def test_running_balance(ledger):
    assert [str(b) for _, b in ledger.running_balance("cash")] == ["€100.00", "€87.60", "€84.50"]


def test_credit(ledger):
    assert [e.is_credit for e in ledger][:3] == [True, False, True]


def test_round_trip(ledger, tmp_path):
    again = Ledger.from_csv(ledger.to_csv())
    assert [(e.day, e.account, e.amount, e.memo, e.tags) for e in again] == \
        [(e.day, e.account, e.amount, e.memo, e.tags) for e in ledger]


def test_reads_from_file(ledger_file):
    assert len(Ledger.from_csv(ledger_file.read_text(encoding="utf-8"))) == 6


class TestErrors:
    def test_missing_column(self):
        with pytest.raises(LedgerError, match="missing columns: amount"):
            Ledger.from_csv("day,account\n2024-01-01,cash\n")

    def test_bad_date_names_line(self):
        with pytest.raises(LedgerError, match=r"line 3: bad date"):
            Ledger.from_csv("day,account,amount\n2024-01-01,cash,€1\n2024-13-01,cash,€1\n")

    def test_bad_amount(self):
        with pytest.raises(LedgerError) as info:
            Ledger.from_csv("day,account,amount\n2024-01-01,cash,one euro\n")
        assert info.value.line == 2

    def test_wrong_currency(self):
        with pytest.raises(LedgerError, match="ledger in EUR"):
            Ledger.from_csv("day,account,amount\n2024-01-01,cash,$1\n")

    def test_usd_ledger(self):
        led = Ledger.from_csv("day,account,amount\n2024-01-01,cash,$1\n", currency="USD")
        assert led.balance() == Money("1", "USD")


def test_big_ledger_balances(big_ledger_text):
    led = Ledger.from_csv(big_ledger_text)
    assert len(led) == 365
    assert sum((led.balance(a) for a in led.accounts()), Money(0)) == led.balance()


@pytest.mark.parametrize("account", ["acct0", "acct1", "acct2", "acct3", "acct4"])
def test_big_ledger_accounts(big_ledger_text, account):
    led = Ledger.from_csv(big_ledger_text)
    assert led.balance(account) > Money(0)


@pytest.mark.xfail(reason="tags with spaces are not supported yet")
def test_tag_with_spaces():
    led = Ledger.from_csv("day,account,amount,tags\n2024-01-01,cash,€1,two words\n")
    assert led.tagged("two") == []
