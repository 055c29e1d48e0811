//\
/*
R"GLJS(
*/
// greenlight's jest reporter (jest 29 and 30; CommonJS). Loaded by absolute path from
// /work/.gl with `--reporters=/work/.gl/jest_reporter.js` and `--testLocationInResults`; reports
// through EVENTS.md with js_events.js, which sits beside it.
//
// jest runs a file's tests in a worker (or in band) and tells the reporters, in its main
// process: onTestCaseStart (jest >= 29.6) and onTestCaseResult as each test starts and ends, and
// onTestFileResult once the file is done, with every test of the file (skipped and todo ones
// too) and the error of a file that did not load. jest does not report a file's tests before
// running them, so `collected` for a file comes with its onTestFileResult, after its tests ran.
//
// Ids: "<file relative to the working directory>::<describe titles and test title joined with
// ' > '>". Expected/received come from the matcher's own result (failureDetails[].matcherResult),
// rendered by jest-matcher-utils' stringify, as jest prints them. Stacks are jest's, already
// mapped through the transformer's source maps (ts-jest, babel-jest).
'use strict';
const path = require('path');
const util = require('util');
const ev = require(path.join(__dirname, 'js_events.js'));
const cov = require(path.join(__dirname, 'js_coverage.js'));

// jest's own value renderer, from the jest that loaded this reporter: jest-matcher-utils (as
// the matchers print "Expected: ..."), else pretty-format, else util.inspect.
function loadStringify() {
  const {createRequire} = require('module');
  const bases = Object.keys(require.cache).filter((k) => /[\\/]@jest[\\/](core|reporters)[\\/]/.test(k));
  if (require.main && require.main.filename) bases.push(require.main.filename);
  for (const base of bases) {
    try {
      const req = createRequire(base);
      let mu = null;
      try {
        mu = req('jest-matcher-utils');
      } catch (e) {
        const snap = createRequire(req.resolve('jest-snapshot'));
        mu = snap('jest-matcher-utils');
      }
      if (mu && typeof mu.stringify === 'function') return (v) => mu.stringify(v);
    } catch (e) {
      // next base
    }
  }
  for (const base of bases) {
    try {
      const pf = createRequire(base)('pretty-format');
      const format = pf.format || pf.default || pf;
      const plugins = pf.plugins ? Object.values(pf.plugins) : [];
      return (v) => format(v, {min: true, maxDepth: 10, plugins});
    } catch (e) {
      // next base
    }
  }
  return (v) => util.inspect(v, {depth: 6, breakLength: Infinity});
}

const TIMEOUT = /^thrown: "?Exceeded timeout of \d+ ?ms|Exceeded timeout of \d+ ?ms for a (test|hook)/;

class GreenlightJestReporter {
  constructor(globalConfig, options) {
    // In band, the tests run in this process: counting starts before jest loads the first one.
    cov.start();
    this.globalConfig = globalConfig || {};
    this.root = (options && options.root) || process.env.GL_ROOT || process.cwd();
    this.stringify = null;
    this.files = new Map();  // test path -> {started: Set(id), reported: Set(id)}
    this.ran = 0;
    this.namePattern = null;
    const p = this.globalConfig.testNamePattern;
    if (p) {
      try {
        this.namePattern = new RegExp(p, 'i');
      } catch (e) {
        this.namePattern = null;
      }
    }
  }

  fileState(file) {
    let s = this.files.get(file);
    if (!s) {
      s = {started: new Set(), reported: new Set(), lines: new Map()};
      this.files.set(file, s);
    }
    return s;
  }

  // The fields every event about a test carries.
  testFields(file, titles, location) {
    const name = titles.join(' > ');
    let line = location && location.line ? location.line : 0;
    if (!line) line = ev.findTitleLine(file, titles[titles.length - 1]);
    const out = {id: ev.testId(this.root, file, titles), name, file, line};
    if (titles.length > 1) out.parent = ev.testId(this.root, file, titles.slice(0, -1));
    else out.parent = ev.relPath(this.root, file);
    return out;
  }

  onRunStart() {}

  onTestFileStart(test) {
    this.fileState(test.path);
  }

  onTestCaseStart(test, info) {
    if (!info || info.mode === 'skip' || info.mode === 'todo') return;
    const titles = [...(info.ancestorTitles || []), info.title];
    const t = this.testFields(test.path, titles, null);
    const s = this.fileState(test.path);
    s.started.add(t.id);
    ev.emit({ev: 'start', id: t.id, name: t.name, file: t.file, line: t.line});
  }

  onTestCaseResult(test, r) {
    this.report(test.path, r);
  }

  // A test filtered out by -t (jest lists it as skipped): not part of the selection.
  filteredOut(r) {
    if (!this.namePattern || r.status !== 'skipped' && r.status !== 'pending' && r.status !== 'disabled') return false;
    return !this.namePattern.test(r.fullName || [...(r.ancestorTitles || []), r.title].join(' '));
  }

  report(file, r) {
    const titles = [...(r.ancestorTitles || []), r.title];
    const t = this.testFields(file, titles, r.location);
    const s = this.fileState(file);
    if (this.filteredOut(r)) return;
    const key = t.id;
    // A title repeated in one describe: each of its results is its own test.
    const n = (s.lines.get(key) || 0) + 1;
    s.lines.set(key, n);
    const out = {ev: 'result', ...t, status: 'passed', duration_ms: r.duration || 0, message: ''};
    switch (r.status) {
      case 'passed':
      case 'focused':
        break;
      case 'todo':
        out.status = 'skipped';
        out.outcome = 'todo';
        out.reason = 'todo';
        break;
      case 'pending':
      case 'skipped':
      case 'disabled':
        out.status = 'skipped';
        out.outcome = r.status === 'pending' ? 'pending' : 'skipped';
        break;
      case 'failed':
        Object.assign(out, this.describeFailure(r, file));
        break;
      default:
        out.status = 'error';
        out.message = 'jest status ' + r.status;
    }
    if (out.status !== 'skipped') this.ran++;
    s.reported.add(t.id + '#' + n);
    ev.emit(out);
  }

  describeFailure(r, file) {
    const details = (r.failureDetails && r.failureDetails[0]) || null;
    const text = ev.stripAnsi((r.failureMessages && r.failureMessages[0]) || (details && details.message) || '');
    const res = {status: 'failed', kind: 'assertion', message: '', frames: []};
    const stack = (details && details.stack) || text;
    res.frames = ev.parseFrames(stack);
    const mr = details && details.matcherResult;
    const isAssert = mr || (details && (details.code === 'ERR_ASSERTION' || details.name === 'AssertionError' ||
      /^AssertionError/.test(details.name || ''))) || /^(Error: )?expect\(/.test(text);
    const message = ev.stripAnsi((mr && mr.message) || (details && details.message) || text);
    if (TIMEOUT.test(firstMeaningful(message)) || TIMEOUT.test(firstMeaningful(text))) {
      return {status: 'timeout', kind: 'timeout', message: firstMeaningful(message || text), frames: res.frames,
        details: ev.cap(ev.trimStack(message || text), ev.DETAILS_CAP)};
    }
    if (!isAssert) {
      res.status = 'error';
      res.kind = 'exception';
      // The stack's first line names the error as node prints it ("TypeError: ..."); a worker
      // sends the error without its name.
      const head = firstMeaningful(text);
      const name = (details && details.name && details.name !== 'Error') ? details.name : 'Error';
      const msg = details && typeof details.message === 'string' ? details.message : text;
      res.message = /^[\w$.]*(Error|Exception)\b|^thrown: /.test(head) ? head
        : /^[\w$.]*(Error|Exception)\b/.test(firstMeaningful(msg)) ? firstMeaningful(msg) : name + ': ' + firstMeaningful(msg);
      res.details = ev.cap(ev.trimStack(text), ev.DETAILS_CAP);
      return res;
    }
    // "Expected: 4" / "Received: 3" lines, when the matcher printed them on one line each.
    const lines = message.split('\n').map((l) => l.trim());
    const exp = lines.find((l) => /^Expected( value| constructor| pattern| substring| length| path)?:/.test(l));
    const rec = lines.find((l) => /^Received( value| constructor| message| length| string| path| function did not throw)?:?/.test(l) && l !== 'Received');
    if (mr && ('expected' in mr || 'actual' in mr)) {
      if (!this.stringify) this.stringify = loadStringify();
      try {
        if ('expected' in mr && mr.expected !== undefined) res.expected = ev.cap(this.stringify(mr.expected), ev.VALUE_CAP);
        if ('actual' in mr && mr.actual !== undefined) res.actual = ev.cap(this.stringify(mr.actual), ev.VALUE_CAP);
      } catch (e) {
        // the message says it
      }
    } else if (details && 'expected' in details && 'actual' in details) {
      res.expected = ev.show(details.expected);
      res.actual = ev.show(details.actual);
    }
    // Matchers that keep the values to their message ("Expected length: 2" / "Received length: 3").
    if (res.expected === undefined && exp) res.expected = exp.replace(/^[^:]*:\s*/, '');
    if (res.actual === undefined && rec && /:/.test(rec)) res.actual = rec.replace(/^[^:]*:\s*/, '');
    if (exp && rec) {
      res.message = exp.replace(/\s+/g, ' ') + ', ' + rec.replace(/\s+/g, ' ');
    } else if (res.expected !== undefined && res.actual !== undefined &&
               res.expected.length + res.actual.length <= 160 && !/\n/.test(res.expected + res.actual)) {
      // A diff (toEqual and friends): the two values, when they are short.
      res.message = 'Expected: ' + res.expected + ', Received: ' + res.actual;
    } else {
      res.message = firstMeaningful(message);
    }
    res.details = ev.cap(message.trim(), ev.DETAILS_CAP);
    return res;
  }

  onTestFileResult(test, testResult) {
    const file = test.path;
    const s = this.fileState(file);
    const results = testResult.testResults || [];
    const tests = [];
    for (const r of results) {
      if (this.filteredOut(r)) continue;
      const titles = [...(r.ancestorTitles || []), r.title];
      const t = this.testFields(file, titles, r.location);
      tests.push(t);
    }
    if (tests.length) ev.emit({ev: 'collected', tests});
    // Results not reported as they ended: skipped and todo tests, and every test when this jest
    // has no onTestCaseResult.
    const seen = new Map();
    for (const r of results) {
      const titles = [...(r.ancestorTitles || []), r.title];
      const id = ev.testId(this.root, file, titles);
      const n = (seen.get(id) || 0) + 1;
      seen.set(id, n);
      if (!s.reported.has(id + '#' + n)) this.report(file, r);
    }
    if (testResult.testExecError || (testResult.failureMessage && results.length === 0)) {
      this.fileError(file, testResult.testExecError, testResult.failureMessage);
    }
  }

  fileError(file, error, failureMessage) {
    const text = ev.stripAnsi((error && (error.stack || error.message)) || failureMessage || 'test file failed');
    const message = ev.stripAnsi((error && error.message) || failureMessage || 'test file failed');
    const frames = ev.parseFrames(text);
    // A syntax error: babel/ts-jest name the place as "file: message (line:col)" or "file:line:col".
    const m = /\((\d+):(\d+)\)/.exec(message) || new RegExp(ev.escapeRegExp(file) + ':(\\d+):(\\d+)').exec(text);
    if (m && !frames.some((f) => f.file === file)) frames.push({file, line: Number(m[1]), column: Number(m[2]), function: ''});
    // ts-jest's diagnostics: "src/x.ts:31:3 - error TS2322: ...", relative to the root.
    const ts = /^(\S+?\.[cm]?[jt]sx?):(\d+):(\d+) - error TS\d+/m.exec(message);
    if (ts) {
      const tsFile = path.resolve(this.globalConfig.rootDir || this.root, ts[1]);
      frames.push({file: tsFile, line: Number(ts[2]), column: Number(ts[3]), function: ''});
    }
    const top = frames.length ? frames[frames.length - 1] : {file, line: 1};
    const one = firstMeaningful(message.replace(/^\s*●\s*Test suite failed to run\s*/, ''));
    const rel = ev.relPath(this.root, file);
    const details = ev.cap(ev.trimStack(text).trim(), ev.DETAILS_CAP);
    const own = frames.filter((f) => f.file === file);
    // The error event stands where it went wrong; the result on the test file it stopped.
    ev.emit({ev: 'error', file: top.file, line: top.line || 1, message: one, details, frames});
    ev.emit({ev: 'result', id: rel + '::(collection)', name: rel + ' (collection)', parent: rel, file,
      line: own.length ? own[own.length - 1].line : 1, status: 'error',
      kind: ts || /SyntaxError|Unexpected token|unexpected token/.test(message) ? 'compile' : 'exception',
      message: one, details, frames, duration_ms: 0});
  }

  onRunComplete(contexts, aggregated) {
    // jest sets aggregated.success only after the reporters' onRunComplete: the same test here.
    const a = aggregated || {};
    const success = !(a.numFailedTests > 0 || a.numRuntimeErrorTestSuites > 0 ||
      (a.snapshot && a.snapshot.failure) || a.runExecError);
    const failCode = this.globalConfig.testFailureExitCode == null ? 1 : this.globalConfig.testFailureExitCode;
    cov.report(ev.emit);
    ev.emit({ev: 'done', ran: this.ran, exit: success ? 0 : failCode});
  }

  getLastError() {
    return undefined;
  }
}

// The first line that says something: jest's messages can open with blank lines or "● ...".
function firstMeaningful(s) {
  for (const line of ev.stripAnsi(s).split('\n')) {
    const t = line.trim();
    if (t && !/^●/.test(t)) return t;
  }
  return ev.firstLine(s);
}

module.exports = GreenlightJestReporter;
/*
)GLJS" // */
