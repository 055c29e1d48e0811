#!/usr/bin/env python3
"""Checks greenlight's events against the runner's own verdict, test id by test id.

    check_events.py EVENTS (--junit XML | --unittest JSON) [--json] [--only-file REL]

EVENTS is the raw stdout of a run (the "\\n\\x1eGL {json}\\n" lines of
server/core/testing/harness/EVENTS.md among the run's own output), or "-" for stdin.

--junit: pytest's JUnit XML (`--junitxml`); each event id is mapped to the XML's
(classname, name) exactly as pytest's junitxml plugin names a node id.
--unittest: the JSON written by truth_unittest.py ({"tests": {id: outcome}}).

Outcomes compared: passed, failed, error, skipped, xfailed. The runner's side: a JUnit
<failure> is failed, <error> error, <skipped type="pytest.xfail"> xfailed, other <skipped>
skipped, no child passed; one id with several testcases (a failing call and a failing
teardown) takes the first of failed > error > xfailed > skipped > passed. greenlight's side:
status failed is failed; error and timeout are error; skipped with outcome xfailed is
xfailed, with outcome notrun (not run because the run stopped) is left out and must be absent
from the runner's verdict; skipped is skipped; passed (an xpassed test too) is passed.

Also checked, because the C++ side relies on them: every result's id was listed in
`collected` (once), no id has two results, every `start` has its result, `done` came last.

Exit 0 when everything agrees; 1 with one line per disagreement; 2 on unreadable input.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

ORDER = ["failed", "error", "xfailed", "skipped", "passed"]


def read_events(path):
    data = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
    return read_events_bytes(data)


def read_events_bytes(data):
    events = []
    for line in data.split(b"\n"):
        if line.startswith(b"\x1eGL "):
            events.append(json.loads(line[4:].decode("utf-8")))
    return events


def mangle(nodeid):
    """pytest's junitxml.mangle_test_address: node id -> (classname, name)."""
    path, bracket, params = nodeid.partition("[")
    names = path.split("::")
    names[0] = re.sub(r"\.py$", "", names[0].replace("/", "."))
    names[-1] += bracket + params
    return ".".join(names[:-1]), names[-1]


def combine(outcomes):
    for o in ORDER:
        if o in outcomes:
            return o
    return "passed"


def junit_outcomes(path):
    found = {}
    for tc in ET.parse(path).iter("testcase"):
        tags = []
        for child in tc:
            if child.tag == "failure":
                tags.append("failed")
            elif child.tag == "error":
                tags.append("error")
            elif child.tag == "skipped":
                tags.append("xfailed" if child.get("type") == "pytest.xfail" else "skipped")
        key = (tc.get("classname") or "", tc.get("name") or "")
        found.setdefault(key, []).append(combine(tags) if tags else "passed")
    return {k: combine(v) for k, v in found.items()}


def event_outcome(res):
    status, outcome = res.get("status"), res.get("outcome")
    if status == "failed":
        return "failed"
    if status in ("error", "timeout"):
        return "error"
    if status == "skipped":
        if outcome == "notrun":
            return None
        return "xfailed" if outcome == "xfailed" else "skipped"
    return "passed"


def protocol_problems(events):
    problems = []
    collected = []
    for e in events:
        if e.get("ev") == "collected":
            collected.extend(t["id"] for t in e.get("tests", []))
    if len(collected) != len(set(collected)):
        dup = sorted({i for i in collected if collected.count(i) > 1})
        problems.append("collected lists ids twice: %s" % dup[:5])
    collected = set(collected)
    results = [e for e in events if e.get("ev") == "result"]
    ids = [r["id"] for r in results]
    seen = set()
    for i in ids:
        if i in seen:
            problems.append("two results for %s" % i)
        seen.add(i)
    for r in results:
        if r["id"] not in collected:
            problems.append("result for %s, which collected did not list" % r["id"])
        for key in ("name", "file", "line", "status"):
            if key not in r:
                problems.append("result for %s has no %s" % (r["id"], key))
    for i in sorted(collected - seen):
        problems.append("collected %s but no result" % i)
    for e in events:
        if e.get("ev") == "start" and e["id"] not in seen:
            problems.append("start of %s without a result" % e["id"])
    if not events or events[-1].get("ev") != "done":
        problems.append("the last event is not done")
    return problems


def main(argv):
    args = [a for i, a in enumerate(argv) if not a.startswith("--") and
            (i == 0 or argv[i - 1] not in ("--junit", "--unittest", "--only-file"))]
    as_json = "--json" in argv
    try:
        events = read_events(args[0])
        if "--junit" in argv:
            truth = junit_outcomes(argv[argv.index("--junit") + 1])
            key_of = mangle
        else:
            with open(argv[argv.index("--unittest") + 1], "r", encoding="utf-8") as f:
                truth = {k: v for k, v in json.load(f)["tests"].items()}
            key_of = lambda i: i  # noqa: E731
    except (OSError, ValueError, IndexError, ET.ParseError) as e:
        print("check_events: %s" % e, file=sys.stderr)
        return 2
    if "--only-file" in argv:
        # A run of one file that collects more (a package's __init__.py collects the package):
        # only that file's results are compared.
        only = argv[argv.index("--only-file") + 1]
        keep = lambda i: i.split("::", 1)[0] == only  # noqa: E731
        for e in events:
            if e.get("ev") == "collected":
                e["tests"] = [t for t in e.get("tests", []) if keep(t["id"])]
        events = [e for e in events if e.get("ev") not in ("result", "start") or keep(e["id"])]
    problems = protocol_problems(events)
    ours = {}
    names = {}
    files = {}
    for r in (e for e in events if e.get("ev") == "result"):
        outcome = event_outcome(r)
        ident = r["id"]
        if "--unittest" in argv:
            # The same test run twice by one suite: reported as "id [2]"; unittest has one id.
            ident = re.sub(r" \[\d+\]$", "", ident)
        key = key_of(ident)
        names[key] = ident
        files[key] = r.get("file") or ident.split("::", 1)[0]
        if outcome is None:
            if key in truth:
                problems.append("%s: greenlight says not run, the runner says %s" % (r["id"], truth[key]))
            continue
        ours[key] = combine([ours[key], outcome]) if key in ours else outcome
    per_file = {}
    for key in sorted(set(ours) | set(truth), key=str):
        ident = names.get(key) or ("::".join(k for k in key if k) if isinstance(key, tuple) else key)
        file = files.get(key) or "(no result: %s)" % ident
        stats = per_file.setdefault(file, {"agree": 0, "disagree": 0})
        a, b = ours.get(key), truth.get(key)
        if a == b:
            stats["agree"] += 1
            continue
        stats["disagree"] += 1
        problems.append("%s: greenlight %s, runner %s" % (ident, a or "(no result)", b or "(no testcase)"))
    if as_json:
        print(json.dumps({"files": per_file, "tests": len(truth), "problems": problems}, indent=1))
    else:
        for file, stats in sorted(per_file.items()):
            print("%-60s %4d agree %s" % (file, stats["agree"],
                                          ("%d DISAGREE" % stats["disagree"]) if stats["disagree"] else ""))
        for p in problems:
            print("MISMATCH " + p)
        print("%d ids, %d problems" % (len(truth), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
