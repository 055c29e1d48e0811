//\
/*
R"GLJS(
*/
// greenlight's node:test reporter (ESM), loaded with --test-reporter inside the sandbox.
// Embedded like node_harness.js. Turns node:test events into the harness's JSON lines.
function line(obj) {
  return '\n\x1eGL ' + JSON.stringify(obj) + '\n';
}

export default async function* greenlightReporter(source) {
  const stack = [];
  for await (const ev of source) {
    const d = ev.data || {};
    if (ev.type === 'test:start') {
      stack[d.nesting] = d.name;
      stack.length = d.nesting + 1;
      yield line({ev: 'start', name: stack.join(' > '), file: d.file || '', line: d.line || 0});
      continue;
    }
    if (ev.type !== 'test:pass' && ev.type !== 'test:fail') continue;
    stack[d.nesting] = d.name;
    stack.length = d.nesting + 1;
    const name = stack.join(' > ');
    const details = d.details || {};
    const out = {ev: 'result', name, file: d.file || '', line: d.line || 0,
      duration_ms: details.duration_ms || 0, status: 'passed', message: ''};
    if (d.skip !== undefined || d.todo !== undefined) {
      out.status = 'skipped';
      out.message = typeof d.skip === 'string' ? d.skip : (typeof d.todo === 'string' ? d.todo : '');
    } else if (ev.type === 'test:fail') {
      const err = details.error || {};
      if (err.failureType === 'subtestsFailed') {
        out.ev = 'loaded';  // the failing subtests report themselves
      } else if (err.failureType === 'testTimeoutFailure') {
        Object.assign(out, {status: 'timeout', kind: 'timeout', message: String(err.message), frames: []});
      } else {
        const cause = err.cause !== undefined ? err.cause : err;
        Object.assign(out, globalThis.__greenlightDescribe
          ? globalThis.__greenlightDescribe(cause)
          : {status: 'failed', message: String(cause && cause.message), frames: []});
      }
    }
    yield line(out);
  }
}
/*
)GLJS" // */
