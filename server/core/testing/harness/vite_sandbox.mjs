//\
/*
R"GLJS(
*/
// greenlight: what vitest on an older vite needs in the sandbox (read-only project, no network).
// Loaded first in vitest's main process and in js_probe.js:
// `node --import=/work/.gl/vite_sandbox.mjs <vitest>/vitest.mjs run ...`. Embedded like
// node_harness.js.
//
// 1. vite before 6.1 loads a TypeScript or ES module config file by bundling it and writing the
//    bundle to disk, then importing it: vite 5 beside the config
//    (<config>.timestamp-<ms>-<hex>.mjs), vite 6.0 into <node_modules>/.vite-temp/. The project
//    and its node_modules are read-only (EROFS), and greenlight never writes into a project: such
//    a file is written to, read from, imported from and removed from
//    /tmp/gl-vite-config/<its absolute path> instead. The bundle names its dependencies by
//    absolute file: URLs, so where it lies does not change what it loads. (vite >= 6.1 is run
//    with `--configLoader runner`, which writes nothing.)
// 2. vitest 1 and 2 leave vite's HMR websocket server on (server.ws), which listens on TCP port
//    24678 even in `vitest run`; without network the sandbox refuses TCP sockets and stops the
//    run. In the main process of vitest (or of the probe), a TCP listen() does nothing: `vitest
//    run` never serves anything (no --api, --ui or browser mode here). The tests' own processes
//    and threads are left alone.
import fs from 'node:fs';
import module from 'node:module';
import net from 'node:net';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {isMainThread} from 'node:worker_threads';

const BASE = '/tmp/gl-vite-config';
const TEMP = /\.timestamp-\d+-[0-9a-f]+\.mjs$|[\\/]node_modules[\\/]\.vite-temp(?:[\\/]|$)/;

// The path a vite temporary file is redirected to, or null for any other path.
function redirected(p) {
  if (p instanceof URL) p = p.protocol === 'file:' ? fileURLToPath(p) : null;
  else if (typeof p === 'string' && p.startsWith('file:')) p = fileURLToPath(p);
  if (typeof p !== 'string' || !TEMP.test(p)) return null;
  const abs = path.resolve(p);
  return abs.startsWith(BASE + '/') ? null : BASE + abs;
}

// The module hooks (run in node's hooks thread): an import of a redirected bundle.
export async function resolve(specifier, context, nextResolve) {
  if (specifier.startsWith('file:')) {
    const q = specifier.search(/[?#]/);
    const bare = q < 0 ? specifier : specifier.slice(0, q);
    const to = redirected(bare);
    if (to) return {url: pathToFileURL(to).href + (q < 0 ? '' : specifier.slice(q)), format: 'module', shortCircuit: true};
  }
  return nextResolve(specifier, context);
}

function install() {
  const wrap = (obj, name, pathArgs = [0]) => {
    const original = obj[name];
    if (typeof original !== 'function') return;
    obj[name] = function (...args) {
      for (const i of pathArgs) {
        const to = redirected(args[i]);
        if (to) {
          if (name !== 'mkdir' && name !== 'mkdirSync') fs.mkdirSync(path.dirname(to), {recursive: true});
          args[i] = to;
        }
      }
      return original.apply(this, args);
    };
  };
  for (const name of ['writeFile', 'mkdir', 'unlink', 'rm', 'readFile', 'stat', 'lstat', 'access']) {
    wrap(fs.promises, name);
  }
  for (const name of ['writeFile', 'writeFileSync', 'mkdir', 'mkdirSync', 'unlink', 'unlinkSync', 'rm', 'rmSync',
    'readFile', 'readFileSync', 'existsSync', 'statSync', 'lstatSync']) {
    wrap(fs, name);
  }
  const listen = net.Server.prototype.listen;
  net.Server.prototype.listen = function (...args) {
    const main = /[\\/](vitest\.mjs|js_probe\.js)$/.test(process.argv[1] || '');
    const tcp = typeof args[0] === 'number' || (args[0] && typeof args[0] === 'object' && !args[0].path && !args[0].fd &&
      !args[0]._handle) || (typeof args[0] === 'string' && /^\d+$/.test(args[0]));
    if (main && tcp) return this;
    return listen.apply(this, args);
  };
  // ES modules that imported these functions by name see the wrapped ones too.
  module.syncBuiltinESMExports();
  if (typeof module.register === 'function') module.register(import.meta.url);
}

if (isMainThread && !globalThis.__greenlightViteSandbox) {
  globalThis.__greenlightViteSandbox = true;
  install();
}
/*
)GLJS" // */
