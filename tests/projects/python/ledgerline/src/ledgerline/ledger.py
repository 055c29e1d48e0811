"""A small ledger of entries: read from CSV, balances, filters."""
import csv
import datetime as dt
import io
from dataclasses import dataclass, field

from .money import Money, parse_money, total


class LedgerError(ValueError):
    """A malformed ledger file or entry."""

    def __init__(self, message, line=None):
        super().__init__(message if line is None else "line %d: %s" % (line, message))
        self.line = line


@dataclass(frozen=True)
class Entry:
    day: dt.date
    account: str
    amount: Money
    memo: str = ""
    tags: frozenset = field(default_factory=frozenset)

    @property
    def is_credit(self):
        return self.amount.amount > 0


class Ledger:
    """Entries in date order.

    >>> led = Ledger.from_csv("day,account,amount\\n2024-01-02,cash,€10.00\\n2024-01-03,cash,-€2.50\\n")
    >>> str(led.balance("cash"))
    '€7.50'
    """

    def __init__(self, entries=(), currency="EUR"):
        self.currency = currency
        self._entries = []
        for entry in entries:
            self.add(entry)

    def __len__(self):
        return len(self._entries)

    def __iter__(self):
        return iter(self._entries)

    def add(self, entry):
        if entry.amount.currency != self.currency:
            raise LedgerError("entry in %s, ledger in %s" % (entry.amount.currency, self.currency))
        index = len(self._entries)
        while index > 0 and self._entries[index - 1].day > entry.day:
            index -= 1
        self._entries.insert(index, entry)
        return entry

    def accounts(self):
        return sorted({e.account for e in self._entries})

    def balance(self, account=None, until=None):
        selected = [e.amount for e in self._entries
                    if (account is None or e.account == account) and (until is None or e.day <= until)]
        return total(selected, self.currency)

    def between(self, start, end):
        """Entries with start <= day < end."""
        return [e for e in self._entries if start <= e.day < end]

    def tagged(self, tag):
        return [e for e in self._entries if tag in e.tags]

    def running_balance(self, account):
        out = []
        acc = Money.zero(self.currency)
        for e in self._entries:
            if e.account == account:
                acc = acc + e.amount
                out.append((e.day, acc))
        return out

    @classmethod
    def from_csv(cls, text, currency="EUR"):
        reader = csv.DictReader(io.StringIO(text))
        missing = {"day", "account", "amount"} - set(reader.fieldnames or ())
        if missing:
            raise LedgerError("missing columns: %s" % ", ".join(sorted(missing)))
        ledger = cls(currency=currency)
        for number, row in enumerate(reader, start=2):
            try:
                day = dt.date.fromisoformat(row["day"].strip())
            except ValueError:
                raise LedgerError("bad date %r" % row["day"], number) from None
            try:
                amount = parse_money(row["amount"])
            except (ValueError, ArithmeticError):
                raise LedgerError("bad amount %r" % row["amount"], number) from None
            tags = frozenset(t for t in (row.get("tags") or "").split(";") if t)
            ledger.add(Entry(day, row["account"].strip(), amount, (row.get("memo") or "").strip(), tags))
        return ledger

    def to_csv(self):
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["day", "account", "amount", "memo", "tags"])
        for e in self._entries:
            writer.writerow([e.day.isoformat(), e.account, str(e.amount), e.memo, ";".join(sorted(e.tags))])
        return out.getvalue()
