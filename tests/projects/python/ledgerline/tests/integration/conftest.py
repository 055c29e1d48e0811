import textwrap

import pytest

from ledgerline import Ledger

SAMPLE = textwrap.dedent("""\
    day,account,amount,memo,tags
    2024-01-05,cash,€100.00,opening,
    2024-01-07,cash,-€12.40,groceries,food
    2024-01-09,bank,"€1,250.00",salary,income
    2024-01-10,bank,-€600.00,rent,home
    2024-01-10,cash,-€3.10,coffee,food
    2024-02-01,bank,-€45.99,internet,home;monthly
    """)


@pytest.fixture
def sample_text():
    return SAMPLE


@pytest.fixture
def ledger_file(tmp_path, sample_text):
    path = tmp_path / "ledger.csv"
    path.write_text(sample_text, encoding="utf-8")
    yield path
    # Tests must not leave files beside the ledger.
    leftovers = sorted(p.name for p in tmp_path.iterdir() if p.name != "ledger.csv")
    assert not leftovers, leftovers


@pytest.fixture
def ledger(sample_text):
    return Ledger.from_csv(sample_text)


@pytest.fixture(scope="module")
def big_ledger_text(tmp_path_factory):
    lines = ["day,account,amount"]
    for i in range(1, 366):
        lines.append("2024-%02d-%02d,acct%d,€%d.%02d" % (1 + (i % 12), 1 + (i % 28), i % 5, i, i % 100))
    text = "\n".join(lines) + "\n"
    (tmp_path_factory.mktemp("big") / "big.csv").write_text(text)
    return text
