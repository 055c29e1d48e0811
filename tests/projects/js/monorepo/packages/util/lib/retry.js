'use strict';

// Exponential backoff delays: base * factor^i, capped, for `attempts` tries.
function backoff({base = 100, factor = 2, cap = 10000, attempts = 5} = {}) {
  const delays = [];
  for (let i = 0; i < attempts - 1; i++) delays.push(Math.min(cap, base * factor ** i));
  return delays;
}

async function retry(fn, options = {}) {
  const delays = backoff(options);
  const sleep = options.sleep || ((ms) => new Promise((r) => setTimeout(r, ms)));
  let lastError;
  for (let attempt = 0; attempt <= delays.length; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      lastError = e;
      if (attempt < delays.length) await sleep(delays[attempt]);
    }
  }
  throw lastError;
}

module.exports = {backoff, retry};
