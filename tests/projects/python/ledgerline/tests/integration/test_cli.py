import pytest

from ledgerline.cli import main


def test_prints_balances(ledger_file, capsys):
    assert main([str(ledger_file)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == ["bank         €604.01", "cash         €84.50", "6 entries, 2 accounts"]
    assert err == ""


def test_one_account(ledger_file, capsys):
    assert main([str(ledger_file), "cash"]) == 0
    assert capsys.readouterr().out.startswith("cash         €84.50\n")


def test_usage(capsys):
    assert main([]) == 2
    assert "usage" in capsys.readouterr().err


def test_missing_file(tmp_path, capsys):
    assert main([str(tmp_path / "nope.csv")]) == 1
    assert "No such file" in capsys.readouterr().err


def test_bad_file(tmp_path, capsys):
    path = tmp_path / "bad.csv"
    path.write_text("day,account,amount\n2024-02-30,cash,€1\n")
    assert main([str(path)]) == 1
    assert "line 2: bad date" in capsys.readouterr().err


def test_argv_default(monkeypatch, ledger_file, capsys):
    monkeypatch.setattr("sys.argv", ["ledgerline", str(ledger_file), "bank"])
    assert main() == 0
    assert "bank" in capsys.readouterr().out


@pytest.mark.skip(reason="colour output is not implemented")
def test_colour(ledger_file):
    raise AssertionError("unreachable")
