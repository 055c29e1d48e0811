// Node probes run inside the sandbox by the escape-and-limits suite.
// usage: node probe.js WHAT [ARGS...]
'use strict';
const fs = require('fs');
const os = require('os');

const probes = {
  async workloads() {
    // worker_threads, child_process, fs, timers: the node profile must allow them.
    const { Worker } = require('worker_threads');
    const results = await Promise.all([1, 2, 3, 4].map((n) => new Promise((resolve, reject) => {
      const w = new Worker('const { parentPort, workerData } = require("worker_threads"); parentPort.postMessage(workerData * 2);',
        { eval: true, workerData: n });
      w.on('message', resolve);
      w.on('error', reject);
    })));
    if (results.join(',') !== '2,4,6,8') throw new Error('workers: ' + results);
    const cp = require('child_process');
    const out = cp.execFileSync(process.execPath, ['-e', 'console.log(6*7)']).toString().trim();
    if (out !== '42') throw new Error('child_process: ' + out);
    await new Promise((resolve, reject) => {
      cp.exec('echo shell', (err, stdout) => (err ? reject(err) : stdout.trim() === 'shell' ? resolve() : reject(new Error(stdout))));
    });
    const dir = fs.mkdtempSync(os.tmpdir() + '/probe-');
    fs.writeFileSync(dir + '/a.txt', 'data');
    await fs.promises.appendFile(dir + '/a.txt', '!');
    if (fs.readFileSync(dir + '/a.txt', 'utf8') !== 'data!') throw new Error('fs');
    fs.rmSync(dir, { recursive: true });
    await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setImmediate(r));
    const t0 = Date.now();
    let spins = 0;
    await new Promise((resolve) => {
      const iv = setInterval(() => { if (++spins === 3) { clearInterval(iv); resolve(); } }, 5);
    });
    console.log('WORKLOADS OK', Date.now() - t0 >= 0);
  },
  net(host, port) {
    const net = require('net');
    const s = net.connect({ host, port: Number(port) }, () => { console.log('CONNECTED'); s.end('ESCAPED'); });
    s.on('error', (e) => { console.log('NET ERROR', e.code); process.exitCode = 1; });
  },
  write(...paths) {
    for (const p of paths) {
      try { fs.writeFileSync(p, 'ESCAPED'); console.log('WROTE', p); } catch (e) { console.log('DENIED', p, e.code); }
    }
  },
  env() {
    for (const [k, v] of Object.entries(process.env)) console.log('ENV', k, v);
  },
  memory() {
    const keep = [];
    for (;;) keep.push(Buffer.alloc(16 * 1024 * 1024, 1));
  },
};

Promise.resolve(probes[process.argv[2]](...process.argv.slice(3))).catch((e) => {
  console.error('PROBE FAILED', e && e.stack);
  process.exit(1);
});
