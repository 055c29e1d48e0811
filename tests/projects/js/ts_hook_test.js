#!/usr/bin/env node
'use strict';
// greenlight's TypeScript hook for plain node (server/core/testing/harness/ts_hook.mjs with the
// vendored amaro.js beside it), on the node-ts fixtures: ES module and CommonJS packages, .ts
// .mts .cts .tsx, enum/parameter properties (amaro's transform mode, source-mapped) and plain
// annotations (strip-only, positions kept). Failures must point at the .ts lines.
//   node tests/projects/js/ts_hook_test.js      ends with "N passed, M failed"
const fs = require('fs');
const os = require('os');
const path = require('path');
const R = require('./runjs.js');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-ts-hook-'));
const gl = R.stageGl(path.join(tmp, 'gl'));
const fixtures = path.join(__dirname, 'node-ts');
let passed = 0;
let failed = 0;
function check(ok, what, detail) {
  if (ok) passed++;
  else {
    failed++;
    console.log('FAIL ' + what + (detail ? '\n  ' + String(detail).slice(0, 1500).split('\n').join('\n  ') : ''));
  }
}
function node(args, cwd, env = {}) {
  return R.run({argv: [process.execPath, '--import', path.join(gl, 'ts_hook.mjs'), ...args], cwd,
    env: {...R.baseEnv(tmp), ...env}});
}

// 1. node --test over each fixture: every test passes.
const typescriptHome = R.packageDir(path.join(__dirname, 'jest-ts'), 'typescript');
const cases = [
  ['esm', 'test/stack.test.ts', 4],
  ['esm', 'test/render.test.tsx', 1],
  ['cjs', 'test/calc.test.cts', 3],
  ['cjs', 'test/average.test.ts', 2],
];
for (const [pkg, file, n] of cases) {
  const tsx = file.endsWith('.tsx');
  if (tsx && !typescriptHome) {
    console.log(`SKIP ${pkg}/${file}: no typescript installed (tests/projects/js/install.sh jest-ts)`);
    continue;
  }
  const env = tsx ? {NODE_PATH: path.dirname(typescriptHome)} : {};
  const r = node(['--test', '--test-reporter=tap', file], path.join(fixtures, pkg), env);
  const pass = /^# pass (\d+)/m.exec(r.stdout);
  check(r.code === 0 && pass && Number(pass[1]) === n, `${pkg}/${file}: ${n} tests pass`, r.stdout + r.stderr);
}

// 2. .tsx without the project's typescript: a message that says what is missing.
{
  const r = node(['--test', '--test-reporter=tap', 'test/render.test.tsx'], path.join(fixtures, 'esm'), {NODE_PATH: ''});
  check(r.code !== 0 && /needs the project's own "typescript"/.test(r.stdout + r.stderr), '.tsx without typescript says so',
    r.stdout + r.stderr);
}

// 3. Stacks point at the .ts lines, in strip-only and in transform mode, ESM and CommonJS.
const probes = [
  ['strip-only, ES module', 'esm', 'x.ts', 'export function f(a: number): number {\n  const b: string = "x";\n  throw new Error("at 3 " + b + a);\n}\n', 3, 'module'],
  ['transform (enum), ES module', 'esm', 'y.ts', 'enum E { A, B }\nexport class C {\n  constructor(private n: number) {}\n  go(): never {\n    throw new Error("at 5 " + E.B + this.n);\n  }\n}\nexport function f(a: number) { return new C(a).go(); }\n', 5, 'module'],
  ['strip-only, CommonJS', 'cjs', 'z.cts', 'function f(a: number): number {\n  const b: string = "x";\n  throw new Error("at 3 " + b + a);\n}\nmodule.exports = { f };\n', 3, 'commonjs'],
];
for (const [label, pkg, name, text, line, kind] of probes) {
  const dir = path.join(tmp, pkg);
  fs.mkdirSync(dir, {recursive: true});
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({type: pkg === 'esm' ? 'module' : 'commonjs'}));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  const main = path.join(dir, kind === 'module' ? 'main.mjs' : 'main.cjs');
  fs.writeFileSync(main, kind === 'module'
    ? `import {f} from './${name.replace(/\.ts$/, '.js')}';\ntry { f(1); } catch (e) { console.log(e.stack); }\n`
    : `const {f} = require('./${name.replace(/\.cts$/, '.cjs')}');\ntry { f(1); } catch (e) { console.log(e.stack); }\n`);
  const r = node([main], dir);
  const m = new RegExp(name.replace('.', '\\.') + ':(\\d+):\\d+').exec(r.stdout);
  check(m && Number(m[1]) === line, `${label}: the frame is ${name}:${line}`, r.stdout + r.stderr);
}

// 4. A type-syntax error: a SyntaxError that names the file and line.
{
  const dir = path.join(tmp, 'esm');
  fs.writeFileSync(path.join(dir, 'bad.ts'), 'export const a = 1;\nexport const b: = 2;\n');
  fs.writeFileSync(path.join(dir, 'bad-main.mjs'), "import('./bad.ts').catch((e) => { console.log(e.name + '|' + e.stack); });\n");
  const r = node([path.join(dir, 'bad-main.mjs')], dir);
  check(/^SyntaxError\|/.test(r.stdout) && r.stdout.includes(path.join(dir, 'bad.ts') + ':2'), 'a syntax error names bad.ts:2',
    r.stdout + r.stderr);
}

fs.rmSync(tmp, {recursive: true, force: true});
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
