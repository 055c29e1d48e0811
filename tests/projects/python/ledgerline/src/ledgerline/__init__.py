"""Bookkeeping helpers for small ledgers."""
from .dates import business_days_between, due_date, naturalday, naturaldelta
from .ledger import Entry, Ledger, LedgerError
from .lists import natural_list
from .money import Money, PrecisionWarning
from .number import fractional, intcomma, intword, naturalsize, ordinal, scientific

__version__ = "0.4.2"

__all__ = [
    "Entry", "Ledger", "LedgerError", "Money", "PrecisionWarning",
    "business_days_between", "due_date", "fractional", "intcomma", "intword",
    "natural_list", "naturalday", "naturaldelta", "naturalsize", "ordinal", "scientific",
]
