'use strict';

const hex = Array.from({length: 256}, (_, i) => '%' + (i < 16 ? '0' : '') + i.toString(16).toUpperCase());

// RFC 3986 unreserved characters stay as they are; everything else is percent-encoded as UTF-8.
function encode(str) {
  const s = String(str);
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : hex[byte];
  }
  return out;
}

function decode(str) {
  const s = str.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(s);
  } catch (e) {
    return s;  // malformed: keep it as it came
  }
}

function isPlainObject(v) {
  return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
}

// Merges `source` into `target`: arrays concatenate, objects merge deeply, scalars collect.
function merge(target, source) {
  if (source === undefined) return target;
  if (target === undefined) return source;
  if (Array.isArray(target)) return target.concat(source);
  if (isPlainObject(target) && isPlainObject(source)) {
    for (const key of Object.keys(source)) target[key] = merge(target[key], source[key]);
    return target;
  }
  return [target].concat(source);
}

module.exports = {encode, decode, merge, isPlainObject};
