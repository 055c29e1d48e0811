// code-server (VS Code in the browser) for the lane: its own HOME, user-data, extensions and
// config directories under one root (it would otherwise write into the user's home), the
// packaged extension installed there, started on a free loopback port in a process group of its
// own. stop() kills that whole group: a closed page leaves extension hosts behind, each with a
// `greenlight lsp` of its own.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export class CodeServer {
  // bin: code-server's entry script; root: an empty directory it owns; env: the environment
  // every process it starts inherits (the extension host, so also `greenlight lsp`).
  constructor({ bin, root, env }) {
    this.bin = bin;
    this.root = root;
    this.home = path.join(root, 'home');
    this.userData = path.join(root, 'user-data');
    this.extensions = path.join(root, 'extensions');
    this.config = path.join(root, 'config.yaml');
    this.log = path.join(root, 'code-server.log');
    this.env = { ...env, HOME: this.home, XDG_CONFIG_HOME: path.join(this.home, '.config'), XDG_DATA_HOME: path.join(this.home, '.local/share') };
    this.child = undefined;
    for (const d of [this.home, path.join(this.userData, 'User'), this.extensions]) fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(this.config, 'auth: none\ncert: false\n');
  }

  commonArgs() {
    return ['--user-data-dir', this.userData, '--extensions-dir', this.extensions, '--config', this.config];
  }

  installExtension(vsix) {
    const r = spawnSync(this.bin, [...this.commonArgs(), '--install-extension', vsix], { env: this.env, encoding: 'utf8', timeout: 120000 });
    if (r.status !== 0) throw new Error(`code-server --install-extension ${vsix}: exit ${r.status ?? r.signal}\n${r.stdout}\n${r.stderr}`);
  }

  writeSettings(settings) {
    fs.writeFileSync(path.join(this.userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  }

  // Starts it on 127.0.0.1:0 and resolves with the URL it says it listens on.
  start(folder, timeoutMs) {
    const args = [
      ...this.commonArgs(),
      '--bind-addr', '127.0.0.1:0', '--auth', 'none',
      '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
      folder,
    ];
    const logFd = fs.openSync(this.log, 'a');
    this.child = spawn(this.bin, args, { env: this.env, detached: true, stdio: ['ignore', 'pipe', logFd] });
    fs.closeSync(logFd);
    return new Promise((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`code-server did not listen within ${timeoutMs / 1000} s; log: ${this.log}`)), timeoutMs);
      this.child.stdout.on('data', (chunk) => {
        fs.appendFileSync(this.log, chunk);
        seen += chunk.toString();
        const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\/?/.exec(seen);
        if (m) {
          clearTimeout(timer);
          // Keep draining its output into the log.
          this.child.stdout.removeAllListeners('data');
          this.child.stdout.on('data', (c) => fs.appendFileSync(this.log, c));
          resolve(m[1]);
        }
      });
      this.child.on('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited (${code ?? signal}) before listening; log: ${this.log}`));
      });
    });
  }

  // Kills code-server and everything it started (extension hosts, language servers).
  stop() {
    if (!this.child?.pid) return;
    const pgid = this.child.pid;
    this.child = undefined;
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch (e) {
      if (e.code !== 'ESRCH') throw e;
    }
  }
}
