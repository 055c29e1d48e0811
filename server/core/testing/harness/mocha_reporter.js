//\
/*
R"GLJS(
*/
// greenlight's mocha reporter (mocha 10 and 11; CommonJS). Loaded twice by absolute path from
// /work/.gl:
//   --require /work/.gl/mocha_reporter.js   before the spec files load: it records where each
//        test and suite is defined (mocha keeps no locations), narrows the run to the files in
//        GL_MOCHA_FILES, and reports a spec file that fails to load;
//   --reporter /work/.gl/mocha_reporter.js  the reporter proper.
// Reports through EVENTS.md with js_events.js, which sits beside it. mocha runs the tests in
// this process (greenlight passes --no-parallel), so events are written as they happen.
//
// GL_MOCHA_FILES (absolute paths, one a line): mocha adds the files given on its command line to
// the `spec` of .mocharc.* / package.json instead of replacing them, so running one file through
// the CLI alone runs them all; with this set, only these files (and --file ones) are loaded.
'use strict';
const path = require('path');
const ev = require(path.join(__dirname, 'js_events.js'));
const cov = require(path.join(__dirname, 'js_coverage.js'));

const STATE = Symbol.for('greenlight.mocha');

// mocha's own modules, from the mocha that runs (its CLI has loaded lib/mocha.js by now).
function mochaModule() {
  for (const key of Object.keys(require.cache)) {
    if (/[\\/]mocha[\\/]lib[\\/]mocha\.js$/.test(key)) return require.cache[key].exports;
  }
  try {
    const {createRequire} = require('module');
    return createRequire(path.resolve(process.argv[1] || 'x'))('mocha');
  } catch (e) {
    return null;
  }
}

// The line of the spec file's own frame on the current stack: where it()/describe() was called.
function callerLine(file) {
  if (!file) return 0;
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 50;
  const stack = new Error().stack;
  Error.stackTraceLimit = saved;
  for (const line of String(stack).split('\n')) {
    const m = /\(?(?:file:\/\/)?(\/[^()]*?):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!m) continue;
    let f = m[1];
    try {
      f = decodeURIComponent(f);
    } catch (e) {
      // as written
    }
    if (f === file) return Number(m[2]);
  }
  return 0;
}

function install() {
  if (global[STATE]) return global[STATE];
  const state = {Mocha: mochaModule(), loading: null, loadFailed: false};
  Object.defineProperty(global, STATE, {value: state, enumerable: false});
  const Mocha = state.Mocha;
  if (!Mocha || !Mocha.Suite) return state;

  const Suite = Mocha.Suite;
  const addTest = Suite.prototype.addTest;
  Suite.prototype.addTest = function (test) {
    if (test && !test.glLine) test.glLine = callerLine(test.file);
    return addTest.apply(this, arguments);
  };
  const addSuite = Suite.prototype.addSuite;
  Suite.prototype.addSuite = function (suite) {
    if (suite && !suite.glLine) suite.glLine = callerLine(suite.file || this.file);
    return addSuite.apply(this, arguments);
  };

  const createHook = Suite.prototype._createHook;
  if (createHook) {
    Suite.prototype._createHook = function () {
      const hook = createHook.apply(this, arguments);
      if (hook && !hook.glLine) hook.glLine = callerLine(this.file);
      return hook;
    };
  }

  const wanted = (process.env.GL_MOCHA_FILES || '').split('\n').filter(Boolean).map((f) => path.resolve(f));
  const narrow = (mocha) => {
    if (!wanted.length || !Array.isArray(mocha.files)) return;
    const always = [].concat((mocha.options && mocha.options.file) || []).map((f) => path.resolve(f));
    mocha.files = mocha.files.filter((f) => wanted.includes(path.resolve(f)) || always.includes(path.resolve(f)));
    for (const f of wanted) if (!mocha.files.some((g) => path.resolve(g) === f)) mocha.files.push(f);
  };
  const track = (mocha) => {
    if (mocha.glTracked) return;
    mocha.glTracked = true;
    mocha.suite.on('pre-require', (context, file) => {
      state.loading = file;
    });
  };
  const failed = (error) => {
    state.loadFailed = true;
    reportLoadError(state.loading || '', error);
    ev.emit({ev: 'done', ran: 0, exit: 1});
  };
  // Counting starts as the spec files (and what they import) load: at the run, also when this
  // module was loaded ahead by a warm spare.
  const loadFiles = Mocha.prototype.loadFiles;
  Mocha.prototype.loadFiles = function () {
    cov.start();
    narrow(this);
    track(this);
    try {
      return loadFiles.apply(this, arguments);
    } catch (e) {
      failed(e);
      throw e;
    }
  };
  const loadFilesAsync = Mocha.prototype.loadFilesAsync;
  if (loadFilesAsync) {
    Mocha.prototype.loadFilesAsync = function () {
      cov.start();
      narrow(this);
      track(this);
      return loadFilesAsync.apply(this, arguments).catch((e) => {
        failed(e);
        throw e;
      });
    };
  }
  return state;
}

function reportLoadError(file, error) {
  const root = process.env.GL_ROOT || process.cwd();
  const err = error || {};
  const text = ev.stripAnsi(err.stack || String(err));
  const frames = ev.parseFrames(text);
  // A syntax error names its place on the stack's first line ("/abs/file.js:12").
  const m = /^(\/[^\n]*?):(\d+)\s*$/m.exec(text);
  if (m && !frames.some((f) => f.file === m[1])) frames.push({file: m[1], line: Number(m[2]), column: 0, function: ''});
  const own = frames.filter((f) => f.file === file);
  const line = own.length ? own[own.length - 1].line : 1;
  const message = (err.name || 'Error') + ': ' + ev.firstLine(err.message || String(err));
  const rel = ev.relPath(root, file);
  const details = ev.cap(ev.trimStack(text), ev.DETAILS_CAP);
  const top = frames.length ? frames[frames.length - 1] : {file, line};
  ev.emit({ev: 'error', file: top.file, line: top.line || 1, message, details, frames});
  ev.emit({ev: 'result', id: rel + '::(collection)', name: rel + ' (collection)', parent: rel, file, line,
    status: 'error', kind: err instanceof SyntaxError || err.name === 'SyntaxError' ? 'compile' : 'exception',
    message, details, frames, duration_ms: 0});
}

class GreenlightMochaReporter {
  constructor(runner, options) {
    const state = install();
    this.state = state;
    this.runner = runner;
    this.root = process.env.GL_ROOT || process.cwd();
    this.ran = 0;
    this.options = options || {};
    const Mocha = state.Mocha || {};
    this.utils = Mocha.utils || null;
    this.Base = (Mocha.reporters && Mocha.reporters.Base) || null;
    if (this.Base) this.Base.useColors = false;
    const on = (name, fn) => runner.on(name, fn.bind(this));
    on('start', this.onStart);
    on('test', this.onTest);
    on('pass', this.onPass);
    on('fail', this.onFail);
    on('pending', this.onPending);
    on('end', this.onEnd);
  }

  titles(runnable) {
    return typeof runnable.titlePath === 'function' ? runnable.titlePath() : [runnable.title];
  }

  fields(runnable) {
    const file = runnable.file || (runnable.parent && runnable.parent.file) || '';
    const titles = this.titles(runnable);
    let line = runnable.glLine || 0;
    if (!line && file) line = ev.findTitleLine(file, runnable.title, runnable.parent && runnable.parent.glLine || 1);
    const out = {id: ev.testId(this.root, file, titles), name: titles.join(' > '), file, line};
    out.parent = titles.length > 1 ? ev.testId(this.root, file, titles.slice(0, -1)) : ev.relPath(this.root, file);
    return out;
  }

  // Tests the run includes: --grep / --fgrep (and --invert) as the runner applies them.
  selected(test) {
    const grep = this.runner._grep;
    if (!grep) return true;
    grep.lastIndex = 0;
    const match = grep.test(test.fullTitle());
    return this.runner._invert ? !match : match;
  }

  onStart() {
    const tests = [];
    const walk = (suite) => {
      for (const t of suite.tests || []) if (this.selected(t)) tests.push(this.fields(t));
      for (const s of suite.suites || []) walk(s);
    };
    walk(this.runner.suite);
    ev.emit({ev: 'collected', tests});
  }

  onTest(test) {
    const f = this.fields(test);
    ev.emit({ev: 'start', id: f.id, name: f.name, file: f.file, line: f.line});
  }

  onPass(test) {
    this.ran++;
    ev.emit({ev: 'result', ...this.fields(test), status: 'passed', duration_ms: test.duration || 0, message: ''});
  }

  onPending(test) {
    ev.emit({ev: 'result', ...this.fields(test), status: 'skipped', outcome: 'pending', duration_ms: 0, message: ''});
  }

  onFail(runnable, err) {
    const out = {ev: 'result', ...this.fields(runnable), duration_ms: runnable.duration || 0, ...this.describe(err)};
    if (runnable.type === 'hook') {
      // A hook that failed: the tests it guards do not run (mocha reports no result for them).
      out.status = out.status === 'timeout' ? 'timeout' : 'error';
      out.outcome = 'error';
    } else {
      this.ran++;
    }
    ev.emit(out);
  }

  onEnd() {
    cov.report(ev.emit);
    ev.emit({ev: 'done', ran: this.ran, exit: Math.min(this.runner.failures || 0, 255)});
  }

  render(value) {
    if (typeof value === 'string') return JSON.stringify(value);
    try {
      if (this.utils && this.utils.stringify) return this.utils.stringify(value);
    } catch (e) {
      // node's own
    }
    return ev.show(value);
  }

  describe(err) {
    err = err || {};
    const res = {status: 'failed', kind: 'assertion', message: '', frames: ev.parseFrames(err.stack || '')};
    const name = err.name || 'Error';
    const message = ev.stripAnsi(err.message == null ? String(err) : err.message);
    if (err.code === 'ERR_MOCHA_TIMEOUT' || /^Timeout of \d+ms exceeded/.test(message)) {
      return {status: 'timeout', kind: 'timeout', message: ev.firstLine(message), frames: res.frames};
    }
    const isAssert = name === 'AssertionError' || err.code === 'ERR_ASSERTION' || /AssertionError/.test(name);
    if (!isAssert) {
      res.status = 'error';
      res.kind = 'exception';
      res.message = name + ': ' + ev.firstLine(message);
      res.details = ev.cap(ev.trimStack(err.stack || message), ev.DETAILS_CAP);
      return res;
    }
    const hasValues = 'expected' in err && 'actual' in err && err.expected !== undefined &&
      !(err.operator === '==' && err.expected === true && err.generatedMessage === false);
    if (hasValues) {
      res.expected = ev.cap(this.render(err.expected), ev.VALUE_CAP);
      res.actual = ev.cap(this.render(err.actual), ev.VALUE_CAP);
    }
    const first = ev.firstLine(message);
    res.message = (first.startsWith(name) ? '' : name + ': ') + first;
    // node:assert's first line ("Expected values to be strictly equal:") does not hold the values.
    if (hasValues && !/^expected .* to /i.test(first)) {
      const e = /\n/.test(res.expected) ? ev.show(err.expected) : res.expected;
      const a = /\n/.test(res.actual) ? ev.show(err.actual) : res.actual;
      if (e.length + a.length <= 160 && !/\n/.test(e + a)) res.message += ' (Expected: ' + e + ', Received: ' + a + ')';
    }
    const parts = [message.trim()];
    // mocha's own diff, as its spec reporter prints it, when the two sides are alike.
    if (hasValues && this.Base && this.Base.generateDiff && err.showDiff !== false &&
        typeof err.actual === typeof err.expected && !/\+ expected|\+ actual/.test(message)) {
      try {
        const a = typeof err.actual === 'string' ? err.actual : this.render(err.actual);
        const e = typeof err.expected === 'string' ? err.expected : this.render(err.expected);
        const diff = ev.stripAnsi(this.Base.generateDiff(a, e)).replace(/^\n+/, '').replace(/\s+$/, '');
        parts.push(diff.split('\n').map((l) => l.replace(/^ {6}/, '')).join('\n'));
      } catch (e) {
        // the message has it
      }
    }
    res.details = ev.cap(parts.join('\n\n'), ev.DETAILS_CAP);
    return res;
  }
}

install();
module.exports = GreenlightMochaReporter;
/*
)GLJS" // */
