//\
/*
R"GLJS(
*/
// greenlight's JavaScript test harness (CommonJS). Runs inside the sandbox with node.
//
// Embedded into the greenlight binary at build time: harness/Harnesses.cpp #includes this file
// inside a C++ raw string. The first and last three lines are arranged so that C++ sees the
// raw string delimiters while JavaScript sees only comments (a C++ line splice hides line 2
// from C++; JavaScript block comments hide the delimiters from node).
//
// Protocol: JSON events on fd 1, one per line, prefixed with "\n\x1eGL " (see the Python
// harness). Plain files (top-level asserts, console.assert) are one test each; node:test tests
// are reported one by one by node_reporter.mjs, loaded with --test-reporter.
'use strict';
const fs = require('fs');
const path = require('path');
const util = require('util');
const assert = require('assert');

function emit(obj) {
  fs.writeSync(1, '\n\x1eGL ' + JSON.stringify(obj) + '\n');
}

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const HARNESS = __filename;

function parseFrames(stack) {
  const frames = [];
  for (const line of String(stack || '').split('\n')) {
    const m = /^\s*at (?:(.*?) \()?(?:file:\/\/)?(\/[^()]*?):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!m) continue;
    if (m[2] === HARNESS || m[2].startsWith('node:')) continue;
    frames.push({file: m[2], line: Number(m[3]), column: Number(m[4]), function: m[1] || ''});
  }
  return frames.reverse();  // outermost first, like Python's traceback
}

function show(v) {
  let s = util.inspect(v, {depth: 4, breakLength: Infinity});
  if (s.length > 300) s = s.slice(0, 300) + '...';
  return s;
}

// The source text of the first argument of the assert call on `frame`'s line, if any.
function firstArgument(frame) {
  let text;
  try {
    const lines = fs.readFileSync(frame.file, 'utf8').split('\n');
    text = lines.slice(frame.line - 1, frame.line + 8).join('\n');
  } catch (e) {
    return null;
  }
  const col = Math.max(0, (frame.column || 1) - 1);
  const rest = text.slice(col);
  const open = rest.indexOf('(');
  if (open < 0) return null;
  let depth = 0, quote = null;
  for (let i = open; i < rest.length; i++) {
    const c = rest[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return rest.slice(open + 1, i).replace(/\s+/g, ' ').trim();
    } else if (c === ',' && depth === 1) {
      return rest.slice(open + 1, i).replace(/\s+/g, ' ').trim();
    }
  }
  return null;
}

function describe(err) {
  const res = {frames: []};
  if (err === null || typeof err !== 'object') {
    res.status = 'error';
    res.kind = 'exception';
    res.message = 'uncaught throw of ' + show(err);
    return res;
  }
  res.frames = parseFrames(err.stack);
  // A SyntaxError from loading a file names the place on the stack's first line, "file:line".
  if (err instanceof SyntaxError) {
    const m = /^(\/[^\n]*?):(\d+)\s*$/m.exec(String(err.stack || ''));
    if (m && m[1] !== HARNESS) res.frames.push({file: m[1], line: Number(m[2]), column: 0, function: ''});
  }
  const isAssert = err.code === 'ERR_ASSERTION' || err.name === 'AssertionError' ||
      err.glConsoleAssert;
  if (err.glTimeout) {
    res.status = 'timeout';
    res.kind = 'timeout';
    res.message = 'timed out (time limit reached)';
    return res;
  }
  if (!isAssert) {
    res.status = 'error';
    res.kind = err instanceof RangeError && /call stack/.test(err.message) ? 'exception' : 'exception';
    res.message = (err.name || 'Error') + ': ' + err.message;
    return res;
  }
  res.status = 'failed';
  res.kind = 'assertion';
  const top = res.frames[res.frames.length - 1];
  if (err.glConsoleAssert) {
    const arg = top ? firstArgument(top) : null;
    res.message = arg ? 'console.assert(' + arg + ') failed' : 'console.assert failed';
    if (err.glDetail) res.message += ': ' + err.glDetail;
    return res;
  }
  const hasOperands = 'actual' in err && 'expected' in err &&
      !(err.operator === '==' && err.expected === true && err.generatedMessage === false);
  if (hasOperands && err.operator !== 'fail') {
    res.actual = show(err.actual);
    res.expected = show(err.expected);
    const arg = top ? firstArgument(top) : null;
    if (arg && /\w\s*\(/.test(arg) && err.generatedMessage !== false) {
      res.message = `AssertionError: ${arg} returned ${res.actual}, expected ${res.expected}`;
    } else {
      const first = String(err.message).split('\n').filter((l) => l.trim())[0];
      res.message = `AssertionError: ${first} (actual ${res.actual}, expected ${res.expected})`;
    }
  } else {
    res.message = 'AssertionError: ' + String(err.message).split('\n').filter((l) => l.trim()).join(' ');
  }
  return res;
}
globalThis.__greenlightDescribe = describe;

// console.assert only prints in node; real code relies on it, so a failure must fail the test.
console.assert = function greenlightConsoleAssert(cond, ...rest) {
  if (cond) return;
  const err = new Error('console.assert failed');
  err.glConsoleAssert = true;
  if (rest.length) err.glDetail = rest.map((x) => (typeof x === 'string' ? x : show(x))).join(' ');
  Error.captureStackTrace(err, greenlightConsoleAssert);
  throw err;
};

// A hanging test is not interrupted here: node cannot preempt a synchronous loop from inside
// (an inspector pause is not serviced while the main thread spins). The sandbox's wall-clock
// limit ends the run and the runner blames the test whose "start" has no "result".

async function main() {
  process.on('unhandledRejection', (reason) => {
    emit(Object.assign({ev: 'result', name: '(unhandled rejection)', file: cfg.source || '',
      line: 1}, describe(reason)));
  });
  for (const file of cfg.tests) {
    const text = fs.readFileSync(file, 'utf8');
    const usesNodeTest = /['"](node:)?test['"]/.test(text);
    const name = path.basename(file);
    emit({ev: 'start', name, file, line: 1});
    const t0 = process.hrtime.bigint();
    let res = {status: 'passed', message: ''};
    try {
      if (file.endsWith('.mjs')) await import('file://' + file);
      else require(file);
    } catch (err) {
      res = describe(err);
    }
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (usesNodeTest && res.status === 'passed') {
      emit({ev: 'loaded', name, file});
    } else {
      emit(Object.assign({ev: 'result', name, file, line: 1, duration_ms: ms}, res));
    }
  }
  process.on('exit', () => emit({ev: 'done'}));
}

main().catch((err) => {
  emit(Object.assign({ev: 'result', name: '(harness)', file: '', line: 1}, describe(err)));
});
/*
)GLJS" // */
