'use strict';

const {decode, merge} = require('./utils');

const defaults = {delimiter: '&', depth: 5, arrayLimit: 20, parameterLimit: 1000, allowDots: false};

// "a[b][c]" -> ['a', 'b', 'c']; segments past `depth` stay in one key.
function splitKey(key, options) {
  const k = options.allowDots ? key.replace(/\.([^.[]+)/g, '[$1]') : key;
  const first = /^([^[]*)/.exec(k)[1];
  const segments = first ? [first] : [];
  const re = /\[([^[\]]*)\]/g;
  let m;
  let depth = 0;
  let last = first.length;
  while ((m = re.exec(k)) !== null && depth < options.depth) {
    segments.push(m[1]);
    last = re.lastIndex;
    depth++;
  }
  if (last < k.length) segments.push(k.slice(last));
  return segments;
}

function build(segments, value, options) {
  let leaf = value;
  for (let i = segments.length - 1; i >= 0; i--) {
    const seg = segments[i];
    const index = Number(seg);
    if (seg === '') {
      leaf = [leaf];
    } else if (Number.isInteger(index) && String(index) === seg && index >= 0 && index <= options.arrayLimit) {
      const arr = [];
      arr[index] = leaf;
      leaf = arr;
    } else {
      leaf = {[seg]: leaf};
    }
  }
  return leaf;
}

function compact(value) {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compact);
  if (value && typeof value === 'object') {
    for (const key of Object.keys(value)) value[key] = compact(value[key]);
  }
  return value;
}

function parse(str, opts) {
  const options = {...defaults, ...opts};
  const result = {};
  if (typeof str !== 'string' || str === '') return result;
  const clean = str.charAt(0) === '?' ? str.slice(1) : str;
  const parts = clean.split(options.delimiter).slice(0, options.parameterLimit);
  for (const part of parts) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = decode(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decode(part.slice(eq + 1));
    const segments = splitKey(key, options);
    if (segments.length === 0) continue;
    const built = build(segments, value, options);
    for (const k of Object.keys(built)) result[k] = merge(result[k], built[k]);
  }
  return compact(result);
}

module.exports = parse;
