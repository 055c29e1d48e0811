'use strict';
// The package's main module (package.json "main"): its test files load it as require('..').

function padStart(text, width, fill = ' ') {
  const s = String(text);
  if (s.length >= width) return s;
  return fill.repeat(width - s.length).slice(0, width - s.length) + s;
}

function padEnd(text, width, fill = ' ') {
  const s = String(text);
  if (s.length >= width) return s;
  return s + fill.repeat(width - s.length).slice(0, width - s.length);
}

function center(text, width, fill = ' ') {
  const s = String(text);
  const total = Math.max(0, width - s.length);
  const left = Math.floor(total / 2);
  return fill.repeat(left) + s + fill.repeat(total - left);
}

module.exports = { padStart, padEnd, center };
