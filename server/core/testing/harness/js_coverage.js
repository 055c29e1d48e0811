//\
/*
R"GLJS(
*/
// Line coverage of the file under test for every JavaScript runner greenlight drives (issue 35;
// CommonJS, embedded like js_events.js and written beside it in /work/.gl). The jest and mocha
// reporters and the node harness run the tests in their own process and call start() before
// the first test and report() after the last; vitest runs them in workers, where
// vitest_coverage.mjs (a vitest coverage provider) calls start() and take(), and its main side
// sums and sends what the workers measured.
//
// Which files: targets() below (none: nothing is measured and nothing here runs). How: V8's
// precise block coverage through the inspector of the process (or worker) itself
// (Profiler.startPreciseCoverage {callCount, detailed}), read back with takePreciseCoverage.
// The counts become lines as c8 (v8-to-istanbul 9) makes them: a line's count is that of the
// last range, in V8's order (outer before inner), that holds the whole line, and the script's
// own range holds every line. Code that a transform rewrote (ts-jest, babel-jest, ts-node,
// vite, greenlight's ts_hook) carries an inline source map: ranges are mapped back to the
// original lines the way v8-to-istanbul maps them, with its bias rules.
// Unlike c8, only code lines are reported (EVENTS.md): a line that is blank, a comment, or only
// brackets and separators (`}`, `});`) is left out, and with a source map so is a line that
// produced no code (a TypeScript interface or type). Lines c8 is told to ignore
// (`/* c8 ignore next */`, start/stop) are left out too.
//
// Neutral: the inspector session is this module's own; the texts of the targets are noted as
// node compiles them (watchCompiles: the same calls with the same arguments and results); when
// one was not seen, the Debugger domain is enabled only after the tests, never pauses
// (setSkipAllPauses) and is disabled again; every failure is swallowed (no coverage is not
// "0 % covered"). Bounded: at
// most kMaxFiles files, kMaxScriptChars of text per script, kMaxScripts scripts per file.
'use strict';
const fs = require('fs');
const path = require('path');
const {fileURLToPath} = require('url');

const kMaxFiles = 16;
const kMaxScripts = 64;
const kMaxScriptChars = 4 << 20;

let session = null;
let wanted = [];

// The files to measure: `files` (the node harness has them in its per-run config), else
// GREENLIGHT_COVER, else coverage_targets.json beside this file ({"files": [...]}: what the
// project runners' adapters write into each run's /work/.gl, so that the environment, part of a
// warm spare's shape, stays the same for every file of a project).
function targets(files) {
  let list = files;
  if (!Array.isArray(list) && process.env.GREENLIGHT_COVER) list = process.env.GREENLIGHT_COVER.split(':');
  if (!Array.isArray(list)) {
    try {
      list = JSON.parse(fs.readFileSync(path.join(__dirname, 'coverage_targets.json'), 'utf8')).files;
    } catch (e) {
      list = [];
    }
  }
  const out = [];
  for (const p of Array.isArray(list) ? list : []) {
    if (typeof p === 'string' && path.isAbsolute(p) && out.length < kMaxFiles) out.push(path.normalize(p));
  }
  return out;
}

function post(method, params) {
  let error = null, result = null;
  // An in-process session answers synchronously: the callback has run when post returns.
  session.post(method, params || {}, (e, r) => {
    error = e;
    result = r;
  });
  if (error) throw error;
  return result;
}

// The texts the targets were compiled from, as the runner handed them to node (jest's vm.Script
// or vm.compileFunction, vite-node's vm.runInThisContext, require hooks such as ts-node through
// Module.prototype._compile): file -> [text]. Asking V8 for them instead (Debugger.enable) costs
// a few hundred milliseconds in a process that loaded as much as jest has; reading them as they
// pass costs nothing. A script none of these saw (an ES module through a load hook) falls back
// to the Debugger.
const compiled = new Map();
const textById = new Map();  // V8's scriptId -> the text found for it

function remember(filename, text) {
  try {
    if (typeof text !== 'string' || text.length > kMaxScriptChars) return;
    const file = urlToPath(typeof filename === 'string' ? filename : '');
    if (!file || !wanted.includes(file)) return;
    const list = compiled.get(file) || [];
    if (list.length < kMaxScripts && !list.includes(text)) list.push(text);
    compiled.set(file, list);
  } catch (e) {
    // only a shortcut
  }
}

// Wraps the entry points above so that each call is exactly what it was, plus remember(); once.
// A warm spare calls it before it loads the runner (which may keep what it imports of vm), and
// starts counting after (js_warm.js: compileEagerly).
let watching = false;
function watchCompiles() {
  if (watching) return;
  watching = true;
  const vm = require('vm');
  const Script = vm.Script;
  vm.Script = class Script extends vm.Script {
    constructor(code, options) {
      super(code, options);
      remember(typeof options === 'string' ? options : options && options.filename, code);
    }
  };
  Object.defineProperty(vm.Script, 'name', {value: Script.name});
  for (const name of ['runInThisContext', 'runInContext', 'runInNewContext']) {
    const fn = vm[name];
    if (typeof fn !== 'function') continue;
    vm[name] = function (code, ...rest) {
      const options = name === 'runInThisContext' ? rest[0] : rest[1];
      remember(typeof options === 'string' ? options : options && options.filename, code);
      return fn.call(this, code, ...rest);
    };
  }
  const compileFunction = vm.compileFunction;
  if (typeof compileFunction === 'function') {
    vm.compileFunction = function (code, params, options) {
      remember(options && options.filename, code);
      return compileFunction.apply(this, arguments);
    };
  }
  const Module = require('module');
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (content, filename) {
    remember(filename, content);
    return compile.apply(this, arguments);
  };
}

// Starts counting, once per thread; false when nothing is to be measured or cannot be. After
// prestart() it only learns the targets.
function start(files) {
  if (session) {
    if (!wanted.length) wanted = targets(files);
    return wanted.length > 0;
  }
  wanted = targets(files);
  if (!wanted.length) return false;
  return begin();
}

// Counting in a warm spare (js_warm.js, node_warm.js, with GL_COVERAGE=1), before its run: node_warm
// from its start, js_warm once the runner's code is compiled (its compileEagerly says why). Not
// at the run: V8 switching a process that has run much to block coverage first deoptimizes
// everything and gives every compiled function its source positions again, which took seconds
// with ts-jest's TypeScript service built (a warm run on save of jest-ts: 1.3 s without
// coverage, 11.7 s with). The targets come with the run: start().
function prestart() {
  if (session) return true;
  return begin();
}

// A warm spare that has loaded the runner, before its run (js_warm.js, node_warm.js). What ran
// while loading is taken and dropped: V8 reports, in every take, each function called since the
// last one, and gathering and passing them is most of what the run's take costs (a mocha run's
// take held 301 scripts, 175 once the loading was dropped). The targets are not loaded yet, so
// nothing of theirs is lost. Then the line mapping, which a run uses once, at its end, runs on
// a made-up script with a source map: compiled and run cold it cost the run a few more ms.
function settle() {
  if (!session) return;
  try {
    post('Profiler.takePreciseCoverage');
  } catch (e) {
    // the run's take reports more
  }
  try {
    const file = path.join(__dirname, 'settle.ts');
    const orig = 'const a: number = 1; // one\nexport function f(b: boolean) {\n  if (b) return a;\n  return 2;\n}\n';
    const map = {version: 3, sources: ['settle.ts'], sourcesContent: [orig], mappings: 'AAAA;AACA;AACA;AACA;AACA'};
    const gen = orig.replace(': number', '').replace(': boolean', '');
    const text = gen + '//# sourceMappingURL=data:application/json;base64,' + Buffer.from(JSON.stringify(map)).toString('base64');
    const fns = [{ranges: [{startOffset: 0, endOffset: text.length, count: 1}]},
      {ranges: [{startOffset: gen.indexOf('function'), endOffset: gen.lastIndexOf('}') + 1, count: 1},
        {startOffset: gen.indexOf('return a'), endOffset: gen.indexOf('return 2'), count: 0}]}];
    for (const e of events(merge(new Map(), [{file, lines: scriptLines(file, text, fns)}]))) JSON.stringify(e);
  } catch (e) {
    // only a warm-up
  }
}

function begin() {
  try {
    watchCompiles();
  } catch (e) {
    // the Debugger will tell
  }
  try {
    const inspector = require('inspector');
    session = new inspector.Session();
    session.connect();
    post('Profiler.enable');
    post('Profiler.startPreciseCoverage', {callCount: true, detailed: true});
    return true;
  } catch (e) {
    session = null;
    return false;
  }
}

function urlToPath(url) {
  if (!url) return '';
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url.replace(/[?#].*$/, ''));
    } catch (e) {
      return '';
    }
  }
  return path.isAbsolute(url) ? url.replace(/[?#].*$/, '') : '';
}

// ---- lines of a text ----
function buildLines(text) {
  text = text.trimEnd();
  const lines = [];
  let pos = 0;
  for (const s of text.split(/(?<=\r?\n)/u)) {
    const nl = /\r?\n$/u.exec(s);
    lines.push({line: lines.length + 1, startCol: pos, endCol: pos + s.length - (nl ? nl[0].length : 0), count: 1, ignore: false});
    pos += s.length;
  }
  markIgnored(text, lines);
  return {lines, eof: text.length};
}

// c8's ignore comments (v8-to-istanbul's source.js).
function markIgnored(text, lines) {
  let ignoreCount = 0, ignoreAll = false;
  for (const l of lines) {
    const s = text.slice(l.startCol, l.endCol);
    if (ignoreCount > 0) {
      l.ignore = true;
      ignoreCount--;
    } else if (ignoreAll) {
      l.ignore = true;
    }
    let m;
    if ((m = /^\W*\/\* (?:[cv]8|node:coverage) ignore next (?<count>[0-9]+)/.exec(s))) {
      l.ignore = true;
      ignoreCount = Number(m.groups.count);
    } else if (/^\W*\/\* (?:[cv]8|node:coverage) ignore next/.test(s)) {
      l.ignore = true;
      ignoreCount = 1;
    } else if (/\/\* ([cv]8|node:coverage) ignore next/.test(s)) {
      l.ignore = true;
    } else if ((m = /\/\* [c|v]8 ignore (?<mode>start|stop)/.exec(s)) ||
               (m = /\/\* node:coverage (?<mode>enable|disable)/.exec(s))) {
      l.ignore = true;
      ignoreAll = m.groups.mode === 'start' || m.groups.mode === 'disable';
      ignoreCount = 0;
    }
  }
}

// Which lines hold code: something outside comments that is not a bracket or separator.
// Strings and template literals count as code; a regular expression literal is not told
// apart from division (its text is code either way, unless it holds "//" or "/*").
function codeLines(text, count) {
  const code = new Array(count + 1).fill(false);
  let line = 1, i = 0, state = 0;  // 0 code, 1 block comment, 2 line comment, 3 string
  let quote = '';
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      line++;
      if (state === 2) state = 0;
      if (state === 3 && quote !== '`') state = 0;
      i++;
      continue;
    }
    if (state === 1) {
      if (c === '*' && text[i + 1] === '/') {
        state = 0;
        i += 2;
      } else {
        i++;
      }
      continue;
    }
    if (state === 2) {
      i++;
      continue;
    }
    if (state === 3) {
      if (!/\s/.test(c)) code[line] = true;
      if (c === '\\') i++;
      else if (c === quote) state = 0;
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      state = 1;
      i += 2;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      state = 2;
      i += 2;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      state = 3;
      quote = c;
      code[line] = true;
      i++;
      continue;
    }
    if (!/[\s{}()[\];,]/.test(c)) code[line] = true;
    i++;
  }
  return code;
}

// ---- source maps (Source Map v3; VLQ decoded here) ----
const B64 = new Map([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]));

// mappings -> per generated line, segments [genCol, src, srcLine, srcCol] (0-based), sorted.
function decodeMappings(mappings) {
  const out = [];
  let src = 0, srcLine = 0, srcCol = 0;
  for (const lineText of mappings.split(';')) {
    const segs = [];
    let genCol = 0;
    for (const segText of lineText.split(',')) {
      if (!segText) continue;
      const vals = [];
      let value = 0, shift = 0;
      for (const ch of segText) {
        const d = B64.get(ch);
        if (d === undefined) throw new Error('bad VLQ');
        value += (d & 31) << shift;
        if (d & 32) {
          shift += 5;
        } else {
          vals.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      genCol += vals[0];
      if (vals.length >= 4) {
        src += vals[1];
        srcLine += vals[2];
        srcCol += vals[3];
        segs.push([genCol, src, srcLine, srcCol]);
      } else {
        segs.push([genCol]);
      }
    }
    segs.sort((a, b) => a[0] - b[0]);
    out.push(segs);
  }
  return out;
}

const GLB = 1, LUB = -1;
let found = false;
function search(hay, needle) {
  let low = 0, high = hay.length - 1;
  while (low <= high) {
    const mid = low + ((high - low) >> 1);
    const cmp = hay[mid][0] - needle;
    if (cmp === 0) {
      found = true;
      return mid;
    }
    if (cmp < 0) low = mid + 1;
    else high = mid - 1;
  }
  found = false;
  return low - 1;
}
function traceIndex(segs, column, bias) {
  let index = search(segs, column);
  if (found) {
    if (bias === LUB) {
      while (index + 1 < segs.length && segs[index + 1][0] === column) index++;
    } else {
      while (index - 1 >= 0 && segs[index - 1][0] === column) index--;
    }
  } else if (bias === LUB) {
    index++;
  }
  return index === -1 || index === segs.length ? -1 : index;
}

// trace-mapping's originalPositionFor: line 1-based, column 0-based.
function originalPositionFor(map, line, column, bias) {
  const none = {source: null, line: null, column: null};
  if (line - 1 >= map.decoded.length) return none;
  const segs = map.decoded[line - 1];
  const i = traceIndex(segs, column, bias);
  if (i === -1 || segs[i].length === 1) return none;
  return {source: segs[i][1], line: segs[i][2] + 1, column: segs[i][3]};
}

// trace-mapping's generatedPositionFor (by original position).
function generatedPositionFor(map, source, line, column, bias) {
  if (!map.bySource) {
    map.bySource = [];
    map.decoded.forEach((segs, genLine) => {
      for (const s of segs) {
        if (s.length === 1) continue;
        const bySrc = map.bySource[s[1]] || (map.bySource[s[1]] = []);
        (bySrc[s[2]] || (bySrc[s[2]] = [])).push([s[3], genLine, s[0]]);
      }
    });
    for (const bySrc of map.bySource) for (const l of bySrc || []) if (l) l.sort((a, b) => a[0] - b[0]);
  }
  const segs = (map.bySource[source] || [])[line - 1];
  if (!segs) return {line: null, column: null};
  const i = traceIndex(segs, column, bias);
  if (i === -1) return {line: null, column: null};
  return {line: segs[i][1] + 1, column: segs[i][2]};
}

function originalPositionTryBoth(map, line, column) {
  let original = originalPositionFor(map, line, column, GLB);
  if (original.line === null) original = originalPositionFor(map, line, column, LUB);
  const min = originalPositionFor(map, line, 0, GLB);
  if (min.line > original.line) original = min;
  return original;
}

function originalEndPositionFor(map, line, column) {
  const before = originalPositionTryBoth(map, line, Math.max(column - 1, 1));
  if (before.source === null) return null;
  const after = generatedPositionFor(map, before.source, before.line, before.column + 1, LUB);
  if (after.line === null || originalPositionFor(map, after.line, after.column, GLB).line !== before.line) {
    return {source: before.source, line: before.line, column: Infinity};
  }
  return originalPositionFor(map, after.line, after.column, GLB);
}

// v8-to-istanbul's range.js.
function sliceRange(lines, startCol, endCol, inclusive) {
  let start = 0, end = lines.length;
  if (inclusive) --startCol;
  while (start < end) {
    let mid = (start + end) >> 1;
    if (startCol >= lines[mid].endCol) {
      start = mid + 1;
    } else if (endCol < lines[mid].startCol) {
      end = mid - 1;
    } else {
      end = mid;
      while (mid >= 0 && startCol < lines[mid].endCol && endCol >= lines[mid].startCol) --mid;
      start = mid + 1;
      break;
    }
  }
  while (end < lines.length && startCol < lines[end].endCol && endCol >= lines[end].startCol) ++end;
  return lines.slice(start, end);
}

function relativeToOffset(src, line, relCol) {
  line = Math.max(line, 1);
  const l = src.lines[line - 1];
  if (l === undefined) return src.eof;
  return Math.min(l.startCol + relCol, l.endCol);
}

// A generated range [startCol, endCol) -> the original's offsets, or null (v8-to-istanbul).
function remap(gen, map, sourceIndex, orig, startCol, endCol) {
  const lines = sliceRange(gen.lines, startCol, endCol, true);
  if (!lines.length) return null;
  const start = originalPositionTryBoth(map, lines[0].line, Math.max(0, startCol - lines[0].startCol));
  if (start.source === null) return null;
  const last = lines[lines.length - 1];
  let end = originalEndPositionFor(map, last.line, endCol - last.startCol);
  if (!end || end.source === null || start.source !== end.source) return null;
  if (start.source !== sourceIndex) return null;
  if (start.line === end.line && start.column === end.column) {
    end = originalPositionFor(map, last.line, endCol - last.startCol, LUB);
    end.column -= 1;
  }
  return [relativeToOffset(orig, start.line, start.column), relativeToOffset(orig, end.line, end.column)];
}

// The generated text's inline source map (its last sourceMappingURL comment: vite-node's
// wrapper closes after it), or null.
function inlineMap(text) {
  const at = text.lastIndexOf('sourceMappingURL=data:application/json');
  if (at < 0) return null;
  const m = /^sourceMappingURL=data:application\/json[^,]*?(;base64)?,([^\s*]+)/.exec(text.slice(at));
  if (!m) return null;
  try {
    const json = m[1] ? Buffer.from(m[2], 'base64').toString('utf8') : decodeURIComponent(m[2]);
    const map = JSON.parse(json);
    if (map.sections) return null;  // index maps: not produced by the transforms greenlight meets
    map.decoded = decodeMappings(String(map.mappings || ''));
    return map;
  } catch (e) {
    return null;
  }
}

// The text a runner wraps a module's code in: jest's module wrapper and vite-node's function,
// each opening on the code's first line and closing after its last. V8's offsets count the
// opening; the source map counts neither.
function unwrap(text) {
  const wrappers = [[/^\(\{"Object\.<anonymous>":function\([^)]*\)\{/, '\n}});'], [/^'use strict';async \([^)]*\)=>\{\{/, '\n}}']];
  for (const [open, close] of wrappers) {
    const m = open.exec(text);
    if (m && text.endsWith(close)) return {offset: m[0].length, body: text.slice(m[0].length, text.length - close.length)};
  }
  return {offset: 0, body: text};
}

// The generated code without its closing source-map comments: what v8-to-istanbul is given as
// the transpiled source (a range that ends in those comments would map nowhere).
function withoutMapComments(text) {
  let out = text;
  for (let m; (m = /\n?[ \t]*\/\/[#@] sourceMapping(?:URL|Source)=[^\n]*\s*$/.exec(out));) out = out.slice(0, m.index);
  return out;
}

// One script's functions -> Map(line -> count) over `file`'s code lines; null when it cannot.
function scriptLines(file, text, functions) {
  const {offset: wrapper, body: unwrapped} = unwrap(text);
  const map = inlineMap(unwrapped);
  const body = map ? withoutMapComments(unwrapped) : unwrapped;
  let orig, gen = null, sourceIndex = -1, origText;
  if (map) {
    const dir = path.dirname(file);
    const sources = (map.sources || []).map((s) => {
      s = String(s || '');
      if (s.startsWith('file://')) return urlToPath(s);
      return path.resolve(dir, map.sourceRoot ? String(map.sourceRoot).replace('file://', '') : '', s);
    });
    sourceIndex = sources.indexOf(file);
    if (sourceIndex === -1 && sources.length === 1) sourceIndex = 0;
    if (sourceIndex === -1) return null;
    origText = map.sourcesContent && typeof map.sourcesContent[sourceIndex] === 'string'
      ? map.sourcesContent[sourceIndex] : fs.readFileSync(file, 'utf8');
    gen = buildLines(body);
  } else {
    origText = body;
  }
  orig = buildLines(origText);
  // v8-to-istanbul starts every line at 1 and lets the script's own range (always there the
  // first time) set it. After a take() V8 reports only the functions that ran since, without the
  // script's range: a line none of them holds did not run since.
  const whole = functions.some((f) => f.ranges.length && f.ranges[0].startOffset === 0 && f.ranges[0].endOffset === text.length);
  if (!whole) for (const l of orig.lines) l.count = 0;
  for (const fn of functions) {
    for (const range of fn.ranges) {
      let startCol, endCol;
      if (gen) {
        const r = remap(gen, map, sourceIndex, orig,
          Math.max(0, range.startOffset - wrapper), Math.min(gen.eof, range.endOffset - wrapper));
        if (!r) continue;
        [startCol, endCol] = r;
      } else {
        startCol = Math.max(0, range.startOffset - wrapper);
        endCol = Math.min(orig.eof, range.endOffset - wrapper);
      }
      for (const line of sliceRange(orig.lines, startCol, endCol)) {
        if (startCol <= line.startCol && endCol >= line.endCol && !line.ignore) line.count = range.count;
      }
    }
  }
  const code = codeLines(origText, orig.lines.length);
  let mapped = null;
  if (map) {
    mapped = new Set();
    for (const segs of map.decoded) for (const s of segs) if (s.length > 1 && s[1] === sourceIndex) mapped.add(s[2] + 1);
  }
  const out = new Map();
  for (const l of orig.lines) {
    if (l.ignore || !code[l.line] || (mapped && !mapped.has(l.line))) continue;
    out.set(l.line, l.count);
  }
  return out;
}

// What ran of the target files since start() (or the last take()): [{file, lines}], counters
// reset. Never throws.
function take() {
  if (!session) return [];
  const want = new Set(wanted);
  const perFile = new Map();
  let debuggerOn = false;
  try {
    const {result} = post('Profiler.takePreciseCoverage');
    const scripts = result.filter((s) => want.has(urlToPath(s.url)));
    if (!scripts.length) return [];
    const seen = new Map();
    const disk = new Map();
    for (const s of scripts) {
      const file = urlToPath(s.url);
      const n = (seen.get(file) || 0) + 1;
      seen.set(file, n);
      if (n > kMaxScripts) continue;
      // The script's text: the one compiled whose length is the script's own range (V8's first
      // function spans the whole script), else the file as it is when that fits and the file is
      // plain JavaScript, else V8's copy through the Debugger.
      // (After a take() the script's range is left out: its text is the one found the first time.)
      const length = s.functions.length && s.functions[0].ranges.length ? s.functions[0].ranges[0].endOffset : -1;
      let text = textById.get(s.scriptId);
      if (text === undefined) text = (compiled.get(file) || []).find((t) => t.length === length);
      if (text === undefined && /\.[cm]?js$/.test(file)) {
        if (!disk.has(file)) {
          try {
            disk.set(file, fs.readFileSync(file, 'utf8'));
          } catch (e) {
            disk.set(file, null);
          }
        }
        const t = disk.get(file);
        if (t !== null && t.length === length) text = t;
      }
      if (text === undefined) {
        try {
          if (!debuggerOn) {
            post('Debugger.enable', {maxScriptsCacheSize: 0});
            debuggerOn = true;
            post('Debugger.setSkipAllPauses', {skip: true});
          }
          text = post('Debugger.getScriptSource', {scriptId: s.scriptId}).scriptSource;
        } catch (e) {
          continue;
        }
      }
      if (typeof text !== 'string' || text.length > kMaxScriptChars) continue;
      if (textById.size < kMaxFiles * kMaxScripts) textById.set(s.scriptId, text);
      let lines;
      try {
        lines = scriptLines(file, text, s.functions);
      } catch (e) {
        lines = null;
      }
      if (!lines) continue;
      const acc = perFile.get(file) || new Map();
      for (const [l, c] of lines) acc.set(l, (acc.get(l) || 0) + c);
      perFile.set(file, acc);
    }
  } catch (e) {
    // no coverage this time
  } finally {
    if (debuggerOn) {
      try {
        post('Debugger.disable');
      } catch (e) {
        // ignore
      }
    }
  }
  return [...perFile].map(([file, m]) => ({file, lines: [...m].sort((a, b) => a[0] - b[0])}));
}

// Sums lists from take() (several workers, several test files).
function merge(into, list) {
  for (const {file, lines} of list || []) {
    const acc = into.get(file) || new Map();
    for (const [l, c] of lines) acc.set(l, (acc.get(l) || 0) + c);
    into.set(file, acc);
  }
  return into;
}

function events(merged) {
  return [...merged].map(([file, m]) => ({ev: 'coverage', file, lines: [...m].sort((a, b) => a[0] - b[0])}));
}

// take() and send one coverage event per file through `emit` (js_events.js's).
function report(emit) {
  for (const e of events(merge(new Map(), take()))) emit(e);
}

module.exports = {start, prestart, settle, watchCompiles, take, merge, events, report, scriptLines, targets};
/*
)GLJS" // */
