//\
/*
R"GLJS(
*/
// greenlight's vitest reporter (vitest 1 to 4; ESM). Loaded by absolute path from /work/.gl with
// `--reporter=/work/.gl/vitest_reporter.mjs --includeTaskLocation`; reports through EVENTS.md with
// js_events.js, which sits beside it.
//
// vitest collects each test file in a worker, then runs it, and tells the reporters in its main
// process. Both generations of its reporter API are served, on the same task tree (File > Suite
// > Test, with task.location and task.result):
//   vitest 1 and 2: onCollected(files), onTaskUpdate(packs), onFinished(files, errors);
//   vitest 3 and 4: onTestModuleCollected, onTestCaseReady, onTestCaseResult, onTestModuleEnd,
//   onTestRunEnd (vitest 3 still calls the old ones too: they stand down once onTestRunStart came).
// Errors come already processed by vitest: error.expected / error.actual rendered by its own
// stringify, error.diff its diff, the stack mapped through the transform's source maps.
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const ev = createRequire(import.meta.url)(path.join(here, 'js_events.js'));

const DONE_STATES = new Set(['pass', 'fail', 'skip', 'todo']);

export default class GreenlightVitestReporter {
  constructor(options = {}) {
    this.root = options.root || process.env.GL_ROOT || process.cwd();
    this.modern = false;
    this.started = new Set();   // task ids
    this.reported = new Set();  // task ids
    this.collectedFiles = new Set();
    this.erroredFiles = new Set();
    this.ran = 0;
    this.pattern = null;
    this.done = false;
    this.failed = false;
    this.output = new Map();  // task id -> what it printed
  }

  onInit(ctx) {
    this.ctx = ctx;
    const p = ctx && ctx.config && ctx.config.testNamePattern;
    if (p) this.pattern = p instanceof RegExp ? p : new RegExp(String(p));
    // Where each test is defined (task.location): vitest 1 and 2 have the setting but no flag
    // for it. The workers read the config after onInit.
    try {
      const configs = [ctx.config];
      for (const project of ctx.projects || []) if (project && project.config) configs.push(project.config);
      for (const c of configs) if (c && !c.includeTaskLocation) c.includeTaskLocation = true;
    } catch (e) {
      // a config that cannot change: the title's line in the file stands in
    }
  }

  // ---- the task tree ----
  titles(task) {
    const names = [];
    // vitest 1 and 2 put a file's tests in an unnamed suite: it is no title.
    for (let t = task; t && !t.filepath; t = t.suite) {
      if (t === task || t.name !== '' || t.type !== 'suite') names.unshift(t.name);
    }
    if (task.filepath) return [];
    return names;
  }

  fileOf(task) {
    let t = task;
    while (t && !t.filepath) t = t.suite || t.file;
    return t ? t.filepath : (task.file && task.file.filepath) || '';
  }

  // A test the -t pattern left out: not part of the selection.
  filteredOut(task) {
    if (!this.pattern || task.mode !== 'skip') return false;
    this.pattern.lastIndex = 0;
    return !this.pattern.test(this.titles(task).join(' '));
  }

  fields(task) {
    const file = this.fileOf(task);
    const titles = this.titles(task);
    const out = {id: ev.testId(this.root, file, titles), name: titles.join(' > '), file,
      line: task.location ? task.location.line : ev.findTitleLine(file, task.name)};
    out.parent = titles.length > 1 ? ev.testId(this.root, file, titles.slice(0, -1)) : ev.relPath(this.root, file);
    return out;
  }

  *tests(task) {
    if (task.type === 'test' || task.type === 'custom') {
      yield task;
      return;
    }
    for (const child of task.tasks || []) yield* this.tests(child);
  }

  collect(file) {
    if (!file || this.collectedFiles.has(file.id)) return;
    this.collectedFiles.add(file.id);
    const tests = [];
    for (const t of this.tests(file)) {
      if (!this.filteredOut(t)) tests.push(this.fields(t));
    }
    if (tests.length) ev.emit({ev: 'collected', tests});
  }

  start(task) {
    if (this.started.has(task.id) || this.reported.has(task.id) || task.mode === 'skip' || task.mode === 'todo') return;
    this.started.add(task.id);
    const f = this.fields(task);
    ev.emit({ev: 'start', id: f.id, name: f.name, file: f.file, line: f.line});
  }

  result(task) {
    if (this.reported.has(task.id) || this.filteredOut(task)) return;
    const r = task.result || {};
    const state = r.state || (task.mode === 'todo' ? 'todo' : task.mode === 'skip' ? 'skip' : '');
    if (!DONE_STATES.has(state)) return;
    this.reported.add(task.id);
    const out = {ev: 'result', ...this.fields(task), status: 'passed', duration_ms: Math.round(r.duration || 0), message: ''};
    if (state === 'skip' || state === 'todo') {
      out.status = 'skipped';
      out.outcome = state === 'todo' || task.mode === 'todo' ? 'todo' : 'skipped';
      if (out.outcome === 'todo') out.reason = 'todo';
      else if (r.note || task.note) out.reason = String(r.note || task.note);
    } else if (state === 'fail') {
      Object.assign(out, describeErrors(r.errors || []));
      this.failed = true;
    }
    const printed = this.output.get(task.id);
    if (printed) out.output = ev.cap(printed, 8192);
    if (out.status !== 'skipped') this.ran++;
    ev.emit(out);
  }

  // What a test printed (console.*): vitest hands it to the reporters, with the test's id.
  onUserConsoleLog(log) {
    if (!log || !log.taskId || typeof log.content !== 'string') return;
    const text = (this.output.get(log.taskId) || '') + log.content;
    if (text.length <= 16384) this.output.set(log.taskId, text);
  }

  // What is left of a file once it ended: tests never reported (skipped before they started,
  // or cut short), and the file's own errors (an import that failed, an error in a hook).
  finishFile(file) {
    if (!file) return;
    this.collect(file);
    for (const t of this.tests(file)) this.result(t);
    const r = file.result || {};
    if (r.state === 'fail' && (r.errors || []).length && !this.erroredFiles.has(file.id)) {
      this.erroredFiles.add(file.id);
      this.failed = true;
      this.fileError(file.filepath, r.errors);
    }
  }

  fileError(file, errors) {
    const d = describeErrors(errors);
    const rel = ev.relPath(this.root, file);
    const own = d.frames.filter((fr) => fr.file === file);
    const line = own.length ? own[own.length - 1].line : 1;
    const kind = /SyntaxError|Parse failure|Transform failed|Unexpected token|Expected /.test(d.message) ? 'compile' : 'exception';
    const top = d.frames.length ? d.frames[d.frames.length - 1] : {file, line};
    ev.emit({ev: 'error', file: top.file, line: top.line || 1, message: d.message, details: d.details, frames: d.frames});
    ev.emit({ev: 'result', id: rel + '::(collection)', name: rel + ' (collection)', parent: rel, file, line,
      status: 'error', kind, message: d.message, details: d.details, frames: d.frames, duration_ms: 0});
  }

  // ---- vitest 1 and 2 ----
  onCollected(files) {
    if (this.modern) return;
    for (const file of files || []) this.collect(file);
  }

  onTaskUpdate(packs) {
    if (this.modern || !this.ctx) return;
    for (const pack of packs || []) {
      const task = this.ctx.state.idMap.get(pack[0]);
      if (!task || (task.type !== 'test' && task.type !== 'custom')) continue;
      const result = pack[1] || task.result;
      if (!result) continue;
      if (result.state === 'run') this.start(task);
      else if (DONE_STATES.has(result.state)) {
        this.start(task);
        this.result(task);
      }
    }
  }

  onFinished(files, errors) {
    if (this.modern) return;
    for (const file of files || []) this.finishFile(file);
    this.finish(errors, null);
  }

  // ---- vitest 3 and 4 ----
  onTestRunStart() {
    this.modern = true;
  }

  onTestModuleCollected(testModule) {
    this.modern = true;
    this.collect(testModule.task);
  }

  onTestCaseReady(testCase) {
    this.start(testCase.task);
  }

  onTestCaseResult(testCase) {
    this.start(testCase.task);
    this.result(testCase.task);
  }

  onTestModuleEnd(testModule) {
    this.finishFile(testModule.task);
  }

  onTestRunEnd(testModules, unhandledErrors, reason) {
    for (const m of testModules || []) this.finishFile(m.task);
    this.finish(unhandledErrors, reason);
  }

  finish(errors, reason) {
    if (this.done) return;
    this.done = true;
    for (const e of errors || []) {
      const d = describeErrors([e]);
      const top = d.frames.length ? d.frames[d.frames.length - 1] : null;
      ev.emit({ev: 'error', file: top ? top.file : '', line: top ? top.line : 0,
        message: 'unhandled: ' + d.message, details: d.details, frames: d.frames});
    }
    const failed = this.failed || (errors && errors.length > 0) || reason === 'failed' || reason === 'interrupted';
    ev.emit({ev: 'done', ran: this.ran, exit: failed ? 1 : 0});
  }
}

// A failed test's fields from vitest's processed errors (the first one speaks for the test).
function describeErrors(errors) {
  const e = errors[0] || {};
  const res = {status: 'failed', kind: 'assertion', message: '', frames: []};
  const stack = e.stack || e.stackStr || '';
  res.frames = ev.parseFrames(stack);
  const name = e.name || (e.constructor && e.constructor.name) || 'Error';
  const message = ev.stripAnsi(e.message || '');
  const isAssert = name === 'AssertionError' || e.code === 'ERR_ASSERTION' || 'expected' in e || 'actual' in e ||
    name === 'JestAssertionError';
  if (/^Test timed out in \d+ ?ms/.test(message)) {
    return {status: 'timeout', kind: 'timeout', message: ev.firstLine(message), frames: res.frames,
      details: ev.cap(message, ev.DETAILS_CAP)};
  }
  if (!isAssert) {
    res.status = 'error';
    res.kind = 'exception';
    res.message = name + ': ' + ev.firstLine(message);
    res.details = ev.cap(ev.trimStack(stack || message), ev.DETAILS_CAP);
    return res;
  }
  if (e.expected !== undefined) res.expected = ev.cap(String(e.expected), ev.VALUE_CAP);
  if (e.actual !== undefined) res.actual = ev.cap(String(e.actual), ev.VALUE_CAP);
  const one = ev.firstLine(message);
  res.message = name === 'AssertionError' && !one.startsWith('AssertionError') ? 'AssertionError: ' + one : one;
  if (res.expected !== undefined && res.actual !== undefined && res.expected.length + res.actual.length <= 160 &&
      !/\n/.test(res.expected + res.actual) && !/^expected .* to /.test(one)) {
    res.message += ' (Expected: ' + res.expected + ', Received: ' + res.actual + ')';
  }
  const parts = [message];
  if (e.diff) parts.push(ev.stripAnsi(e.diff));
  res.details = ev.cap(parts.join('\n\n').trim(), ev.DETAILS_CAP);
  return res;
}
/*
)GLJS" // */
