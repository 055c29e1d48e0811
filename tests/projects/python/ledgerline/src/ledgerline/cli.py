"""`ledgerline FILE [ACCOUNT]`: print balances."""
import sys

from .ledger import Ledger, LedgerError
from .number import intcomma


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        print("usage: ledgerline FILE [ACCOUNT]", file=sys.stderr)
        return 2
    try:
        with open(argv[0], encoding="utf-8") as f:
            ledger = Ledger.from_csv(f.read())
    except OSError as e:
        print("ledgerline: %s" % e, file=sys.stderr)
        return 1
    except LedgerError as e:
        print("ledgerline: %s: %s" % (argv[0], e), file=sys.stderr)
        return 1
    accounts = argv[1:] or ledger.accounts()
    for account in accounts:
        print("%-12s %s" % (account, ledger.balance(account)))
    print("%d entries, %s accounts" % (len(ledger), intcomma(len(ledger.accounts()))))
    return 0
