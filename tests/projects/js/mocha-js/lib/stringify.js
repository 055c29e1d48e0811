'use strict';

const {encode, isPlainObject} = require('./utils');

function walk(prefix, value, out, options) {
  if (value === undefined) return;
  if (value === null) {
    out.push(options.strictNullHandling ? prefix : prefix + '=');
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(options.indices ? `${prefix}[${i}]` : `${prefix}[]`, v, out, options));
    return;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (options.sort) keys.sort();
    for (const k of keys) walk(prefix ? `${prefix}[${k}]` : k, value[k], out, options);
    return;
  }
  if (value instanceof Date) value = value.toISOString();
  out.push(encode(prefix).replace(/%5B/g, '[').replace(/%5D/g, ']') + '=' + encode(value));
}

function stringify(obj, opts) {
  const options = {indices: true, sort: false, strictNullHandling: false, addQueryPrefix: false, ...opts};
  if (!isPlainObject(obj)) return '';
  const out = [];
  walk('', obj, out, options);
  const joined = out.join('&');
  return options.addQueryPrefix && joined ? '?' + joined : joined;
}

module.exports = stringify;
