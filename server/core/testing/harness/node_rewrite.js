//\
/*
R"GLJS(
*/
// greenlight's assert rewriter for JavaScript test files (CommonJS module, used by
// node_harness.js inside the sandbox; embedded like it).
//
// Why: a failed `console.assert(longest([]) === null)` says nothing about what longest returned.
// The harness rewrites the TEST file's assert calls before node compiles it so that the values
// of both operands (and, like power-assert, of the calls inside them) are recorded as they are
// computed, and a failure can say `longest([]) returned 'x', expected null`.
//
// How, and why it is exact:
//  - A real parser (acorn, vendored in third_party/acorn and passed in by the caller) finds the
//    calls; nothing is matched with regular expressions.
//  - Every change is an INSERTION inside an assert call's first argument: wrappers open before
//    an operand and close after it. Nothing is removed, no newline is added, so every line keeps
//    its number, text outside the asserts keeps its column, and a column inside a rewritten call
//    maps back exactly (mapPosition); a position inside inserted text maps to the call itself.
//  - The wrappers return their argument unchanged and are called in source order, so every
//    operand is evaluated exactly once, by the original operator (===, ==, <, ... keep their
//    coercions), with short-circuiting intact: a wrapper only records a value when the program
//    computes it. Calls inside functions, classes and optional chains are left alone.
//  - `__greenlightAssert` (defined by the harness) holds the records: b(id) opens a record for an
//    evaluation of assert `id`, l/r keep the left and right operands, v one inner call's value, and
//    e closes the record with the argument's value and passes it on to the assert. Records nest
//    (recursion) but cannot tell apart two evaluations that interleave at an await: such sites
//    are marked `suspends`.
//
// Columns and offsets are JavaScript string indices (UTF-16 code units), as V8 reports them.
'use strict';

const HELPER = '__greenlightAssert';
const COMPARISONS = new Set(['===', '==', '!==', '!=', '<', '<=', '>', '>=']);
// node:assert functions whose AssertionError carries actual/expected: their first argument is
// recorded (and the calls inside it), nothing else changes.
const ASSERT_METHODS = new Set(['strictEqual', 'deepStrictEqual', 'equal', 'deepEqual', 'notStrictEqual',
  'notDeepStrictEqual', 'notEqual', 'notDeepEqual', 'match', 'doesNotMatch', 'partialDeepStrictEqual']);
const MAX_CALLS = 12;  // inner calls (and names) recorded per assert
// Names whose value says nothing, or that cannot be wrapped.
const UNSHOWN_NAMES = new Set(['undefined', 'NaN', 'Infinity', 'arguments', 'eval']);

function isFunctionLike(node) {
  return node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression' ||
    node.type === 'FunctionDeclaration' || node.type === 'ClassExpression' || node.type === 'ClassDeclaration';
}

function childNodes(node) {
  const out = [];
  for (const key of Object.keys(node)) {
    if (key === 'loc' || key === 'range') continue;
    const v = node[key];
    if (Array.isArray(v)) {
      for (const x of v) if (x && typeof x.type === 'string') out.push(x);
    } else if (v && typeof v.type === 'string') {
      out.push(v);
    }
  }
  return out;
}

// The line starts of `text`, with ECMAScript's line terminators (V8 numbers lines the same way).
function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 0x2028 || c === 0x2029) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

// 0-based line index of `offset`.
function lineIndex(starts, offset) {
  let lo = 0, hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid; else hi = mid - 1;
  }
  return lo;
}

function normalize(text) {
  return text.replace(/\s+/g, ' ').trim();
}

// The callee of an assert call this rewriter knows: 'console' (console.assert), 'assert'
// (assert, assert.ok, assert.strict.ok), 'method' (assert.strictEqual, strictEqual, ...), or null.
function assertKind(call) {
  const c = call.callee;
  if (call.optional || !call.arguments.length || call.arguments[0].type === 'SpreadElement') return null;
  if (c.type === 'Identifier') {
    if (c.name === 'assert') return 'assert';
    if (ASSERT_METHODS.has(c.name)) return 'method';
    return null;
  }
  if (c.type !== 'MemberExpression' || c.computed || c.optional || c.property.type !== 'Identifier') return null;
  const name = c.property.name;
  let obj = c.object;
  if (obj.type === 'MemberExpression' && !obj.computed && obj.property.type === 'Identifier' &&
      obj.property.name === 'strict' && obj.object.type === 'Identifier' && obj.object.name === 'assert') {
    obj = obj.object;
  }
  if (obj.type !== 'Identifier') return null;
  if (obj.name === 'console' && name === 'assert' && c.object.type === 'Identifier') return 'console';
  if (obj.name === 'assert' && name === 'ok') return 'assert';
  if (obj.name === 'assert' && ASSERT_METHODS.has(name)) return 'method';
  return null;
}

// Where V8 places a call in a stack trace: a name callee at the name, a member callee at the
// property, anything else at the opening parenthesis.
function reportedOffset(source, call) {
  const c = call.callee;
  if (c.type === 'Identifier') return c.start;
  if (c.type === 'MemberExpression' && !c.computed) return c.property.start;
  return openParen(source, call);
}

// The offset of the `(` that opens the call's arguments (after the callee, comments skipped).
function openParen(source, call) {
  let i = call.callee.end;
  while (i < source.length) {
    const ch = source[i];
    if (ch === '(') return i;
    if (ch === '/' && source[i + 1] === '/') {
      while (i < source.length && !/[\n\r\u2028\u2029]/.test(source[i])) i++;
    } else if (ch === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
    } else {
      i++;
    }
  }
  return call.callee.end;
}

// Does `node` suspend (await, yield) outside the functions it contains?
function suspends(node) {
  if (node.type === 'AwaitExpression' || node.type === 'YieldExpression') return true;
  if (isFunctionLike(node)) return false;
  return childNodes(node).some(suspends);
}

function isCallForm(node) {
  if (node.type === 'AwaitExpression') return !!node.argument && isCallForm(node.argument);
  if (node.type === 'ChainExpression') return node.expression.type === 'CallExpression' && isCallForm(node.expression);
  return node.type === 'CallExpression' &&
    (node.callee.type === 'Identifier' || node.callee.type === 'MemberExpression');
}

// The name a call's callee is known by in the source, when it is a plain name (Python's
// harness shows the function's own name when they differ, e.g. `candidate(1)` -> `fib(1)`).
function calleeName(node) {
  if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name !== 'eval') {
    return node.callee.name;
  }
  return null;
}

/**
 * Rewrites the assert calls of `source`.
 * @param acorn the acorn module
 * @param source the file's text
 * @param options {module: boolean, firstId: number}
 * @returns null when nothing needs rewriting or the text does not parse; else
 *   {code, sites, lines, starts} where sites[i] describes assert firstId+i and lines maps a
 *   1-based line to its insertions (for mapPosition).
 */
function rewrite(acorn, source, options) {
  const opts = options || {};
  let ast;
  try {
    ast = acorn.parse(source, {
      ecmaVersion: 'latest',
      sourceType: opts.module ? 'module' : 'script',
      allowReturnOutsideFunction: !opts.module,
      allowHashBang: true,
      allowAwaitOutsideFunction: !!opts.module,
    });
  } catch (e) {
    return null;
  }
  const inserts = [];  // {at, text, open, depth, site}
  const sites = [];
  let nextId = opts.firstId || 0;
  const text = (node) => normalize(source.slice(node.start, node.end));

  function wrap(node, open, close, depth, site) {
    inserts.push({at: node.start, text: open, open: true, depth, site});
    inserts.push({at: node.end, text: close, open: false, depth, site});
  }

  // The calls inside `node` whose values are worth showing: not inside functions, classes or
  // optional chains (a chain is recorded whole), not assignment targets, not super(...); an
  // awaited call is recorded after the await (its value, not the promise). Also the plain names
  // passed to those calls (`poly(coeffs, solution)`: solution's value), read where the program
  // reads them. `skip` is the operand itself, recorded by its own wrapper. Wrappers nest:
  // `depth` orders them.
  function innerCalls(node, site, skip, depth) {
    const record = (n, dep, isName) => {
      if (n === skip || site.calls.length >= MAX_CALLS) return false;
      const k = site.calls.length;
      site.calls.push(text(n));
      if (isName) site.names.push(k);
      wrap(n, `${HELPER}.v(${site.id},${k},(`, '))', dep, site);
      return true;
    };
    const children = (n, dep) => {
      for (const k of Object.keys(n)) {
        const v = n[k];
        if (Array.isArray(v)) {
          for (const x of v) if (x && typeof x.type === 'string') visit(x, n, k, dep);
        } else if (v && typeof v.type === 'string') {
          visit(v, n, k, dep);
        }
      }
    };
    const visit = (n, parent, key, dep) => {
      if (isFunctionLike(n)) return;
      if (n.type === 'Identifier') {
        if (key === 'arguments' && (parent.type === 'CallExpression' || parent.type === 'NewExpression') &&
            !UNSHOWN_NAMES.has(n.name) && !site.calls.includes(n.name)) {
          record(n, dep, true);
        }
        return;
      }
      if (n.type === 'ChainExpression') {
        if (n.expression.type === 'CallExpression') record(n, dep);
        return;
      }
      if (n.type === 'AwaitExpression' && n.argument &&
          (n.argument.type === 'CallExpression' || n.argument.type === 'ChainExpression')) {
        const d = record(n, dep) ? dep + 1 : dep;
        if (n.argument.type === 'CallExpression') children(n.argument, d);
        return;
      }
      let d = dep;
      if (n.type === 'CallExpression' && n.callee.type !== 'Super' &&
          !(parent && parent.type === 'AssignmentExpression' && key === 'left') &&
          !(parent && parent.type === 'UpdateExpression')) {
        if (record(n, dep)) d = dep + 1;
      }
      children(n, d);
    };
    visit(node, null, null, depth);
  }

  function addSite(call, kind) {
    const first = call.arguments[0];
    const id = nextId++;
    const site = {
      id,
      kind,
      callee: text(call.callee),
      start: call.callee.start,
      paren: openParen(source, call),
      reported: reportedOffset(source, call),
      form: 'value',
      argument: text(first),
      argumentIsCall: isCallForm(first),
      hasMessage: call.arguments.length > 1,
      calls: [],   // source texts of the recorded inner calls and names, by record index
      names: [],   // the indexes in `calls` that are names
      // An await or yield in the argument: two evaluations of this assert can interleave, and
      // the records (kept per assert, not per evaluation) may mix; the harness then shows none.
      suspends: suspends(first),
    };
    sites.push(site);
    wrap(first, `${HELPER}.e(${HELPER}.b(${id}),`, ')', 0, site);
    if (kind !== 'method' && first.type === 'BinaryExpression' && COMPARISONS.has(first.operator)) {
      const left = first.left, right = first.right;
      site.form = 'compare';
      site.op = first.operator;
      site.left = text(left);
      site.right = text(right);
      site.leftIsCall = isCallForm(left);
      const name = calleeName(left);
      site.leftCallee = name;
      wrap(left, `${HELPER}.l(${id},(`, name ? `),${name})` : '))', 1, site);
      wrap(right, `${HELPER}.r(${id},(`, '))', 1, site);
      innerCalls(left, site, left, 2);
      innerCalls(right, site, right, 2);
    } else {
      site.argumentCallee = calleeName(first);
      if (site.argumentCallee) {
        // The callee's own name, read after the call (a plain name: no side effect).
        inserts[inserts.length - 1].text = `,${site.argumentCallee})`;
      }
      innerCalls(first, site, first, 1);
    }
  }

  (function find(node) {
    if (node.type === 'CallExpression') {
      const kind = assertKind(node);
      if (kind) addSite(node, kind);
    }
    for (const child of childNodes(node)) find(child);
  })(ast);

  if (!sites.length) return null;

  // Apply: by offset; at one offset closing text before opening text, outer opens first and
  // inner closes first.
  inserts.sort((a, b) => a.at - b.at || (a.open === b.open ? (a.open ? a.depth - b.depth : b.depth - a.depth) : (a.open ? 1 : -1)));
  const starts = lineStarts(source);
  const lines = new Map();  // 1-based line -> [{col (0-based, new text), len, site}]
  const parts = [];
  let last = 0, lineShift = 0, currentLine = -1;
  for (const ins of inserts) {
    parts.push(source.slice(last, ins.at), ins.text);
    last = ins.at;
    const li = lineIndex(starts, ins.at);
    if (li !== currentLine) {
      currentLine = li;
      lineShift = 0;
    }
    const col = ins.at - starts[li] + lineShift;
    if (!lines.has(li + 1)) lines.set(li + 1, []);
    lines.get(li + 1).push({col, len: ins.text.length, site: ins.site.id});
    lineShift += ins.text.length;
  }
  parts.push(source.slice(last));
  for (const site of sites) {
    const li = lineIndex(starts, site.reported);
    site.line = li + 1;
    site.column = site.reported - starts[li] + 1;
  }
  return {code: parts.join(''), sites, lines, starts};
}

/**
 * Maps a 1-based (line, column) of the rewritten code back to the original text.
 * @returns {line, column, site} where site is the id of the assert when the position was
 *   inside inserted text (then line/column are that call's), else undefined.
 */
function mapPosition(result, line, column) {
  const segs = result.lines.get(line);
  if (!segs || !column) return {line, column};
  const c = column - 1;
  let shift = 0;
  for (const seg of segs) {
    if (c < seg.col) break;
    if (c < seg.col + seg.len) {
      const site = result.sites.find((s) => s.id === seg.site);
      return {line: site.line, column: site.column, site: site.id};
    }
    shift += seg.len;
  }
  return {line, column: column - shift};
}

// The 0-based offset of a 1-based (line, column) of the ORIGINAL text.
function offsetOf(result, line, column) {
  const start = result.starts[line - 1];
  return start === undefined ? -1 : start + Math.max(0, column - 1);
}

module.exports = {rewrite, mapPosition, offsetOf, lineStarts, HELPER};
/*
)GLJS" // */
