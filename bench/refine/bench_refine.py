#!/usr/bin/env python3
"""The generate -> run -> refine loop over HumanEval, timed (a benchmark: it prints figures and
asserts nothing). Run it through bench-refine.sh, which builds the Release binary first.

Scripted mode (default): a scripted model (tests/fakes/scripted_model.py on 127.0.0.1) answers
each problem with a candidate that returns a sentinel, then with the canonical solution once the
feedback carries the sentinel, so every problem takes exactly 2 rounds. For each round it takes
what is not the model's time -- the wall time of `greenlight generate` minus model_ms, per round
(process start, configuration, discovery, prompts, the sandboxed test run, feedback) -- and
tests_ms alone, and compares them with a bare `python3` run of the same tests (the solution, the
problem's check() and its docstring examples, in one unsandboxed process). Medians in one run,
interleaved so that load drifts hit both sides alike. The scripted model streams its answer
over --model-ms (default 600 ms: real models take seconds), as a real one does while greenlight
readies the round's warm interpreter; --model-ms 0 answers at once. --cold turns
sandbox.warmInterpreters off. Goal: a round's overhead <= 0.5x the bare run with warm
interpreters.

Real mode (--real): the provider greenlight resolves from the environment (skipped with a
message when there is none) on a HumanEval sample: pass@1 after round 1 and after the last round.
"""
import argparse
import gzip
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPTED = os.path.join(ROOT, "tests", "fakes", "scripted_model.py")


def load_problems(shared):
    path = os.path.join(shared, "corpora", "humaneval", "HumanEval.jsonl.gz")
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def well_formed_doctests(prompt):
    """False for docstrings whose examples no solution passes as doctests (`>>> f(x) == y` with
    no expected output, prose after >>>): greenlight runs docstring examples as tests."""
    lines = [l.strip() for l in prompt.splitlines()]
    for i, line in enumerate(lines):
        if line.startswith(">>>"):
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            if not nxt or nxt.startswith(">>>") or nxt.startswith('"""') or nxt.startswith("'''"):
                return False
    return True


def sample(problems, count):
    """`count` problems spread evenly over the corpus, each the first with well-formed doctests
    from its start index on (deterministic)."""
    chosen = []
    step = max(1, len(problems) // count)
    for start in range(0, len(problems), step):
        i = start
        while i < len(problems) and (not well_formed_doctests(problems[i]["prompt"]) or i in chosen):
            i += 1
        if i < len(problems):
            chosen.append(i)
        if len(chosen) == count:
            break
    return chosen


def test_file(record):
    return ("from prob import *\nimport prob as _gl_prob\n\n" + record["test"] +
            "\n\ndef test_check():\n    check(_gl_prob." + record["entry_point"] + ")\n")


def stub_definition(prompt, entry):
    at = prompt.index("def " + entry + "(")
    return prompt.count("\n", 0, at) + 1, prompt[at:].rstrip("\n")


def fence(code):
    return "```python\n" + code + "\n```\n"


class Server:
    def __init__(self, script, workdir):
        self.dir = workdir
        with open(os.path.join(workdir, "script.json"), "w") as f:
            json.dump(script, f)
        port_file = os.path.join(workdir, "port")
        self.proc = subprocess.Popen([sys.executable, SCRIPTED, "--script", os.path.join(workdir, "script.json"),
                                      "--port-file", port_file], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while not os.path.exists(port_file):
            if time.time() > deadline or self.proc.poll() is not None:
                raise SystemExit("bench_refine: the scripted model did not start")
            time.sleep(0.02)
        with open(port_file) as f:
            self.url = "http://127.0.0.1:%s/v1" % f.read().strip()

    def close(self):
        self.proc.terminate()
        self.proc.wait()


def children_cpu_ms():
    """CPU time (user + system) of every waited-for child so far: a figure the machine's load
    does not inflate, unlike wall time. A child's own waited-for children (the sandboxed test
    processes under greenlight) are included."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1000.0


def run_generate(binary, workdir, line, env, rounds=None):
    args = [binary, "generate", "prob.py:%d" % line, "--json"]
    if rounds:
        args += ["--rounds", str(rounds)]
    cpu = children_cpu_ms()
    start = time.perf_counter()
    p = subprocess.run(args, cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = (time.perf_counter() - start) * 1000.0
    cpu = children_cpu_ms() - cpu
    try:
        result = json.loads(p.stdout)
    except ValueError:
        result = None
    return p.returncode, result, wall, p.stderr, cpu


def run_bare(python, path):
    cpu = children_cpu_ms()
    start = time.perf_counter()
    p = subprocess.run([python, path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000.0, p.returncode, children_cpu_ms() - cpu


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def scripted(args, problems):
    indices = sample(problems, args.problems)
    work = tempfile.mkdtemp(prefix="gl-bench-refine-")
    python = sys.executable  # the interpreter itself, not a pyenv shim (greenlight resolves past it too)
    rules, cases = [], []
    for i in indices:
        r = problems[i]
        entry = r["entry_point"]
        marker = "# bench problem %d\n" % i
        line, definition = stub_definition(r["prompt"], entry)
        sentinel = "GL_BENCH_SENTINEL_%d" % (i * 7919 + 13)
        rule = {"match": marker, "wrong": fence(definition + "\n    return '%s'" % sentinel),
                "right": fence(definition + "\n" + r["canonical_solution"]), "evidence": sentinel}
        if args.model_ms > 0:
            # About 20 streamed pieces over model_ms, as a model writes its answer.
            rule["piece"] = max(8, len(rule["right"]) // 20)
            rule["delay_ms"] = max(1, args.model_ms // 20)
        rules.append(rule)
        d = os.path.join(work, "p%03d" % i)
        os.makedirs(d)
        with open(os.path.join(d, ".greenlight.json"), "w") as f:
            f.write('{"sandbox": {"warmInterpreters": false}}\n' if args.cold else "{}\n")
        with open(os.path.join(d, "prob.py"), "w") as f:
            f.write(marker + r["prompt"])
        with open(os.path.join(d, "test_prob.py"), "w") as f:
            f.write(test_file(r))
        # The same tests, bare: the solution and check() in one process (the baseline); and with
        # the docstring's examples through the stdlib doctest module too (greenlight runs them
        # as well, but importing doctest alone costs more than the rest, so the ratio is taken
        # against the leaner baseline).
        program = r["prompt"] + r["canonical_solution"] + "\n\n" + r["test"] + "\n\ncheck(" + entry + ")\n"
        with open(os.path.join(d, "bare.py"), "w") as f:
            f.write(program)
        with open(os.path.join(d, "bare_doctest.py"), "w") as f:
            f.write(program + "import doctest\ndoctest.run_docstring_examples(" + entry + ", globals())\n")
        cases.append((i, d, line + 1))
    server = Server({"rules": rules}, work)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"),
           "XDG_CACHE_HOME": os.path.join(work, "cache"), "GREENLIGHT_PROVIDER": "openai",
           "OPENAI_BASE_URL": server.url, "OPENAI_API_KEY": "sk-bench", "GREENLIGHT_MODEL": "scripted"}
    for k in ("PYENV_ROOT", "PYENV_VERSION"):
        if k in os.environ:
            env[k] = os.environ[k]
    try:
        # Warm-up (harness compile cache, page cache), not counted.
        run_generate(args.bin, cases[0][1], cases[0][2], env)  # noqa: the result is not counted
        run_bare(python, os.path.join(cases[0][1], "bare.py"))
        overhead, tests, per_run_bare, model, walls = [], [], [], [], []
        cpu_round, cpu_bare, bare_doctest = [], [], []
        exact, failures = 0, []
        for rep in range(args.repeat):
            for n, (i, d, line) in enumerate(cases):
                order = ("gl", "bare") if (n + rep) % 2 == 0 else ("bare", "gl")
                for side in order:
                    if side == "bare":
                        for _ in range(2):  # one bare run per round
                            ms, rc, cpu = run_bare(python, os.path.join(d, "bare.py"))
                            if rc == 0:
                                per_run_bare.append(ms)
                                cpu_bare.append(cpu)
                        ms, rc, _ = run_bare(python, os.path.join(d, "bare_doctest.py"))
                        if rc == 0:
                            bare_doctest.append(ms)
                        continue
                    rc, result, wall, err, cpu = run_generate(args.bin, d, line, env)
                    if rc != 0 or not result:
                        failures.append("HumanEval/%d: exit %d %s" % (i, rc, (err or "").strip()[:200]))
                        continue
                    rounds = result["rounds"]
                    if len(rounds) == 2 and rep == 0:
                        exact += 1
                    walls.append(wall)
                    model.append(result["summary"]["model_ms"] / len(rounds))
                    overhead.append((wall - result["summary"]["model_ms"]) / len(rounds))
                    tests.extend(r["tests_ms"] for r in rounds)
                    cpu_round.append(cpu / len(rounds))
    finally:
        server.close()
        shutil.rmtree(work, ignore_errors=True)
    if not overhead or not per_run_bare:
        print("bench_refine: nothing measured:", *failures, sep="\n  ")
        return 1
    bare = statistics.median(per_run_bare)
    print("HumanEval through `greenlight generate`, scripted model (wrong first, right on evidence, "
          "answering over %d ms), warm interpreters %s" % (args.model_ms, "off" if args.cold else "on"))
    print("%d problems x %d, %d rounds measured; %s" % (len(cases), args.repeat, len(tests), args.bin))
    print()
    print("%-44s %10s %10s" % ("", "median", "p90"))
    rows = [("bare python3: solution + check()", per_run_bare),
            ("bare python3: + docstring examples (doctest)", bare_doctest),
            ("round: tests_ms (sandboxed test run)", tests),
            ("round: overhead = (wall - model_ms) / rounds", overhead),
            ("round: model_ms (scripted, local)", model),
            ("whole `generate` wall (2 rounds)", walls),
            ("CPU: bare python3 run", cpu_bare),
            ("CPU: round (greenlight + sandboxed tests)", cpu_round)]
    for name, values in rows:
        print("%-44s %8.1f ms %7.1f ms" % (name, statistics.median(values), percentile(values, 0.9)))
    print()
    print("ratio  round overhead / bare run   %.2fx   (goal <= 0.5x with warm interpreters)" %
          (statistics.median(overhead) / bare))
    print("ratio  round tests_ms / bare run   %.2fx" % (statistics.median(tests) / bare))
    print("ratio  CPU per round / bare run    %.2fx   (load-independent)" %
          (statistics.median(cpu_round) / statistics.median(cpu_bare)))
    print("load average during the run: %.1f (on %d CPUs)" % (os.getloadavg()[0], os.cpu_count() or 1))
    print("passed in exactly 2 rounds: %d/%d" % (exact, len(cases)))
    for f in failures:
        print("  " + f)
    return 0


def real(args, problems):
    indices = sample(problems, args.problems)
    work = tempfile.mkdtemp(prefix="gl-bench-real-")
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = os.path.join(work, "cache")
    results = []
    try:
        for n, i in enumerate(indices):
            r = problems[i]
            d = os.path.join(work, "p%03d" % i)
            os.makedirs(d)
            with open(os.path.join(d, ".greenlight.json"), "w") as f:
                f.write("{}\n")
            with open(os.path.join(d, "prob.py"), "w") as f:
                f.write(r["prompt"])
            with open(os.path.join(d, "test_prob.py"), "w") as f:
                f.write(test_file(r))
            line, _ = stub_definition(r["prompt"], r["entry_point"])
            rc, result, wall, err, _ = run_generate(args.bin, d, line, env, rounds=args.rounds)
            if rc == 2 and n == 0:
                print("bench_refine --real: skipped: no LLM provider is configured (greenlight says:)")
                print("  " + "\n  ".join(err.strip().splitlines()[:6]))
                return 0
            if result is None:
                print("HumanEval/%d: exit %d, no JSON: %s" % (i, rc, err.strip()[:300]))
                continue
            first = bool(result["rounds"]) and any(c["status"] == "passed" for c in result["rounds"][0]["candidates"])
            results.append((i, first, result["status"] == "passed", len(result["rounds"]), result["summary"], wall))
            print("HumanEval/%-4d %-8s rounds %d  model %.0f ms  tests %.0f ms" %
                  (i, result["status"], len(result["rounds"]), result["summary"]["model_ms"], result["summary"]["tests_ms"]),
                  flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not results:
        print("bench_refine --real: no result")
        return 1
    n = len(results)
    p1 = sum(1 for r in results if r[1])
    pl = sum(1 for r in results if r[2])
    print()
    print("HumanEval sample of %d, tests visible to the model, up to %d rounds" % (n, args.rounds))
    print("%-34s %6s %8s" % ("", "passed", "pass@1"))
    print("%-34s %6d %7.1f%%" % ("after round 1", p1, 100.0 * p1 / n))
    print("%-34s %6d %7.1f%%" % ("after the last round", pl, 100.0 * pl / n))
    print("median model_ms per problem %.0f, median tests_ms %.0f, tokens in/out %d/%d" % (
        statistics.median(r[4]["model_ms"] for r in results), statistics.median(r[4]["tests_ms"] for r in results),
        sum(r[4]["prompt_tokens"] for r in results), sum(r[4]["completion_tokens"] for r in results)))
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="the greenlight binary")
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--problems", type=int, default=None, help="sample size (scripted 20, real 20)")
    ap.add_argument("--repeat", type=int, default=2, help="passes over the sample (scripted)")
    ap.add_argument("--real", action="store_true", help="the provider from the environment")
    ap.add_argument("--rounds", type=int, default=3, help="refine rounds (real)")
    ap.add_argument("--model-ms", type=int, default=600, help="how long the scripted model takes to answer")
    ap.add_argument("--cold", action="store_true", help="sandbox.warmInterpreters off")
    args = ap.parse_args()
    args.problems = args.problems or 20
    problems = load_problems(args.shared)
    return real(args, problems) if args.real else scripted(args, problems)


if __name__ == "__main__":
    sys.exit(main())
