'use strict';

const UNITS = {ms: 1, s: 1000, m: 60 * 1000, h: 60 * 60 * 1000, d: 24 * 60 * 60 * 1000};

// "1h30m", "250ms", "2d 4h" -> milliseconds.
function parseDuration(text) {
  const re = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)/g;
  let total = 0;
  let matched = '';
  let m;
  while ((m = re.exec(text)) !== null) {
    total += Number(m[1]) * UNITS[m[2]];
    matched += m[0];
  }
  if (!matched || matched.replace(/\s/g, '') !== text.replace(/\s/g, '')) {
    throw new SyntaxError(`invalid duration: ${JSON.stringify(text)}`);
  }
  return Math.round(total);
}

function formatDuration(ms) {
  if (ms < 1000) return `${ms}ms`;
  const parts = [];
  for (const unit of ['d', 'h', 'm', 's']) {
    const n = Math.floor(ms / UNITS[unit]);
    if (n > 0) {
      parts.push(`${n}${unit}`);
      ms -= n * UNITS[unit];
    }
  }
  return parts.join(' ');
}

module.exports = {parseDuration, formatDuration};
