//\
/*
R"GLJS(
*/
// What greenlight's jest, vitest and mocha reporters share (CommonJS; embedded like
// node_harness.js and written beside them in /work/.gl). Each reporter requires it by its
// absolute path (path.join(__dirname, 'js_events.js')).
//
// Events go to fd 1 as "\n\x1eGL <json>\n" (EVENTS.md), with fs.writeSync: the runner's own
// stdout stream (which jest and mocha reporters share with the code under test, and which a test
// may stub) is never involved, and an event is out before the next line runs.
'use strict';
const fs = require('fs');
const path = require('path');
const util = require('util');

const OUT_FD = 1;
const DETAILS_CAP = 4096;
const VALUE_CAP = 2000;

function emit(obj) {
  const text = '\n\x1eGL ' + JSON.stringify(obj) + '\n';
  for (let off = 0, buf = Buffer.from(text); off < buf.length;) {
    try {
      off += fs.writeSync(OUT_FD, buf, off);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;  // a non-blocking pipe that is full: try again
      return;
    }
  }
}

const ANSI = /[\u001b\u009b][[\]()#;?]*(?:(?:(?:[a-zA-Z\d]*(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g;
function stripAnsi(s) {
  return String(s == null ? '' : s).replace(ANSI, '');
}

function cap(s, n) {
  s = String(s);
  return s.length > n ? s.slice(0, n - 3) + '...' : s;
}

// One line: the first non-empty line of a message, trimmed.
function firstLine(s) {
  for (const line of stripAnsi(s).split('\n')) {
    if (line.trim()) return line.trim();
  }
  return '';
}

// The user's frames of a stack, outermost first: node_modules, node's own and greenlight's
// frames are left out. Stack lines look like "    at fn (/abs/file.ts:12:5)", "at /abs/f.js:3:1",
// "at fn (file:///abs/f.mjs:3:1)".
function parseFrames(stack, options = {}) {
  const frames = [];
  const glDir = __dirname + path.sep;
  for (const line of stripAnsi(stack).split('\n')) {
    const m = /^\s*at (?:(?:async )?(.*?) \()?(file:\/\/)?([^()\s][^()]*?):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!m || /^(node|native|internal|evalmachine)\b|^<anonymous>/.test(m[3])) continue;
    // mocha's stack filter writes paths relative to the working directory.
    let file = m[2] || m[3].startsWith('/') ? m[3] : path.resolve(options.cwd || process.cwd(), m[3]);
    if (m[2]) {
      try {
        file = decodeURIComponent(file);
      } catch (e) {
        // keep it as written
      }
    }
    if (file.startsWith(glDir) || file.includes('/node_modules/') || file.startsWith('node:')) continue;
    if (options.keep && !options.keep(file)) continue;
    frames.push({file, line: Number(m[4]), column: Number(m[5]), function: m[1] || ''});
  }
  return frames.reverse();
}

// A message with its stack, less the frames of node_modules, node's own and greenlight's.
function trimStack(text) {
  const glDir = __dirname + path.sep;
  return stripAnsi(text).split('\n').filter((l) => !/^\s*at /.test(l) ||
    !(/\/node_modules\/|\(node:|^\s*at node:|\(<anonymous>\)|^\s*at new Promise \(<anonymous>\)/.test(l) || l.includes(glDir))).join('\n');
}

// node's util.inspect for values no runner machinery rendered (mocha with node:assert).
function show(v) {
  let s;
  try {
    s = typeof v === 'string' ? JSON.stringify(v)
      : util.inspect(v, {depth: 6, breakLength: Infinity, maxArrayLength: 100, maxStringLength: 1000});
  } catch (e) {
    s = '<inspect failed: ' + (e && e.name) + '>';
  }
  return cap(s, VALUE_CAP);
}

// Where a test is defined when the runner does not say: the first line at or after `fromLine`
// that holds the title as a string literal (quoted with ', " or `), else 0.
const fileLines = new Map();
function findTitleLine(file, title, fromLine = 1) {
  let lines = fileLines.get(file);
  if (lines === undefined) {
    try {
      lines = fs.readFileSync(file, 'utf8').split('\n');
    } catch (e) {
      lines = null;
    }
    fileLines.set(file, lines);
  }
  if (!lines || !title) return 0;
  const needles = ["'" + title + "'", '"' + title + '"', '`' + title + '`',
    "'" + title.replace(/'/g, "\\'") + "'", '"' + title.replace(/"/g, '\\"') + '"'];
  for (let pass = 0; pass < 2; pass++) {
    for (let i = Math.max(0, fromLine - 1); i < lines.length; i++) {
      const l = lines[i];
      if (needles.some((n) => l.includes(n))) return i + 1;
    }
    fromLine = 1;
  }
  return 0;
}

// The id of a test: "<file relative to root>::<title path joined with ' > '>".
function testId(root, file, titles) {
  return relPath(root, file) + '::' + titles.join(' > ');
}

function relPath(root, file) {
  const rel = path.relative(root, file);
  return rel.split(path.sep).join('/');
}

// A regular expression that matches exactly `text`.
function escapeRegExp(text) {
  return String(text).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

module.exports = {emit, stripAnsi, cap, firstLine, parseFrames, trimStack, show, findTitleLine, testId, relPath,
  escapeRegExp, DETAILS_CAP, VALUE_CAP};
/*
)GLJS" // */
