//\
/*
R"GLJS(
*/
// greenlight's probe of a JavaScript project's test runner (CommonJS; embedded like
// node_harness.js, written to /work/.gl). It asks the project's own runner for its resolved
// configuration, and translates the answer: greenlight never re-implements a runner's config
// loading (presets, projects, TypeScript config files, .mocharc.* merging).
//
//   node /work/.gl/js_probe.js [--runner jest|vitest|mocha] [--list] [--related FILE]
//                                                      (cwd: the project, the package.json dir)
// Prints one event on fd 1, "\n\x1eGL " + JSON + "\n" (EVENTS.md's wire; a config file may print
// too), {"ev": "config", ...}:
//   root         the working directory
//   runner       the project's runner: the one `scripts.test` names, else the one with a config
//                file, else the only one installed; "node" when scripts.test runs `node --test`;
//                null when none. `why` says which rule chose it.
//   runners      {name: {version, bin, dir}} for jest, vitest, mocha found from root as node finds
//                packages (nested or hoisted node_modules); `bin` is what greenlight runs with node.
//   tools        versions of typescript, ts-jest, ts-node, tsx, @swc/jest, babel-jest if installed.
//   jest         {rootDir, projects: [{name, rootDir, roots, testMatch, testRegex,
//                testPathIgnorePatterns, moduleFileExtensions, transform: [[regex, module]],
//                testEnvironment}]} from jest-config's readConfigs (what `jest --showConfig` shows).
//   vitest       {root, include, exclude, includeSource, dir, projects: [{name, root, include,
//                exclude, includeSource}]} from vitest/node's createVitest (no test runs).
//   mocha        {spec, extension, ignore, require, file, recursive, ui, parallel, timeout}
//                from mocha's own loadOptions (.mocharc.*, package.json "mocha", defaults).
//   files        with --list: the test files, absolute, as the runner itself lists them
//                (jest --listTests, vitest's test globbing, mocha's collect-files).
//   aliases      [{find, regex, whole, replacements}]: the module aliases of the resolved config
//                (jest's moduleNameMapper: regex, whole; vite's resolve.alias: a string prefix or
//                a regex whose match is replaced), what greenlight's resolver applies first.
//   related      with --related FILE (jest, vitest): the test files that load FILE, as the runner
//                itself finds them (jest --listTests --findRelatedTests, vitest's related filter
//                over its module graph).
//   error        when the runner could not load its configuration: its message.
'use strict';
const fs = require('fs');
const path = require('path');
const {pathToFileURL} = require('url');

const OUT_FD = 1;
const root = process.cwd();
const argv = process.argv.slice(2);
const wantList = argv.includes('--list');
const related = argv.includes('--related') ? argv[argv.indexOf('--related') + 1] : null;
const forced = argv.includes('--runner') ? argv[argv.indexOf('--runner') + 1] : null;

function emit(obj) {
  fs.writeSync(OUT_FD, '\n\x1eGL ' + JSON.stringify(obj) + '\n');
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    return null;
  }
}

// <dir>/node_modules/<name>, then each parent's: node's lookup, without a package's "exports"
// hiding its bin and lib files.
function packageDir(name) {
  for (let d = root; ; d = path.dirname(d)) {
    const candidate = path.join(d, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (d === path.dirname(d)) return null;
  }
}

function version(name) {
  const dir = packageDir(name);
  const pkg = dir && readJson(path.join(dir, 'package.json'));
  return pkg ? pkg.version : null;
}

const BINS = {jest: [['jest', 'bin/jest.js'], ['jest-cli', 'bin/jest.js']], vitest: [['vitest', 'vitest.mjs']],
  mocha: [['mocha', 'bin/mocha.js'], ['mocha', 'bin/mocha']]};

function findRunner(name) {
  for (const [pkg, bin] of BINS[name]) {
    const dir = packageDir(pkg);
    if (dir && fs.existsSync(path.join(dir, bin))) {
      return {version: readJson(path.join(dir, 'package.json')).version, bin: path.join(dir, bin), dir};
    }
  }
  return null;
}

function exists(names) {
  return names.find((n) => fs.existsSync(path.join(root, n))) || null;
}

const CONFIGS = {
  jest: ['jest.config.js', 'jest.config.ts', 'jest.config.mjs', 'jest.config.cjs', 'jest.config.cts', 'jest.config.json'],
  vitest: ['vitest.config.ts', 'vitest.config.mts', 'vitest.config.cts', 'vitest.config.js', 'vitest.config.mjs',
    'vitest.config.cjs', 'vitest.workspace.ts', 'vitest.workspace.js', 'vitest.workspace.json'],
  mocha: ['.mocharc.js', '.mocharc.cjs', '.mocharc.yaml', '.mocharc.yml', '.mocharc.jsonc', '.mocharc.json'],
};

function chooseRunner(pkg, runners) {
  const script = (pkg && pkg.scripts && pkg.scripts.test) || '';
  const named = /\b(vitest|jest|mocha)\b/.exec(script);
  if (named) return {runner: named[1], why: 'scripts.test'};
  if (/\bnode\b[^&|;]*\s--test\b/.test(script)) return {runner: 'node', why: 'scripts.test'};
  for (const name of ['jest', 'vitest', 'mocha']) {
    const own = name === 'jest' ? pkg && pkg.jest : name === 'mocha' ? pkg && pkg.mocha : null;
    if (exists(CONFIGS[name]) || own) return {runner: name, why: 'config file'};
  }
  // vite.config.* with a `test` block: vitest's.
  const vite = exists(['vite.config.ts', 'vite.config.mts', 'vite.config.js', 'vite.config.mjs']);
  if (vite && runners.vitest && /\btest\s*:/.test(fs.readFileSync(path.join(root, vite), 'utf8'))) {
    return {runner: 'vitest', why: 'config file'};
  }
  const installed = Object.keys(runners);
  if (installed.length === 1) return {runner: installed[0], why: 'dependency'};
  return {runner: null, why: installed.length ? 'several runners installed, none named' : 'no runner installed'};
}

function reString(v) {
  return v instanceof RegExp ? v.source : String(v);
}

async function probeJest(info) {
  const jestConfig = require(path.join(packageDir('jest-config') ||
    path.join(info.dir, 'node_modules', 'jest-config'), 'build', 'index.js'));
  const {globalConfig, configs} = await jestConfig.readConfigs({$0: 'jest', _: [], ci: true, watchman: false}, [root]);
  const out = {rootDir: globalConfig.rootDir, projects: configs.map((c) => ({
    name: c.displayName ? c.displayName.name || String(c.displayName) : c.id || '',
    rootDir: c.rootDir, roots: c.roots, testMatch: c.testMatch, testRegex: (c.testRegex || []).map(reString),
    testPathIgnorePatterns: c.testPathIgnorePatterns, moduleFileExtensions: c.moduleFileExtensions,
    transform: (c.transform || []).map((t) => [t[0], t[1]]), testEnvironment: c.testEnvironment,
  }))};
  const aliases = [];
  for (const c of configs) {
    for (const [find, to] of c.moduleNameMapper || []) {
      aliases.push({find: reString(find), regex: true, whole: true, replacements: [].concat(to).map(String)});
    }
  }
  const files = wantList ? await jestList(info, {}) : null;
  const relatedFiles = related ? await jestList(info, {findRelatedTests: true, _: [related]}) : null;
  return {config: out, files, aliases, related: relatedFiles};
}

// `jest --listTests --json [--findRelatedTests FILE]` through jest's own runCLI, its output caught.
async function jestList(info, extra) {
  const jest = require(path.join(info.dir, 'build', 'index.js'));
  const runCLI = jest.runCLI || (jest.default && jest.default.runCLI);
  const chunks = [];
  const write = process.stdout.write;
  process.stdout.write = (chunk, ...rest) => {
    chunks.push(String(chunk));
    const cb = rest.find((r) => typeof r === 'function');
    if (cb) cb();
    return true;
  };
  try {
    await runCLI({$0: 'jest', _: [], listTests: true, json: true, ci: true, watchman: false,
      cacheDirectory: process.env.GL_JEST_CACHE || path.join(require('os').tmpdir(), 'jest'), ...extra}, [root]);
  } finally {
    process.stdout.write = write;
  }
  const text = chunks.join('');
  const m = /\[[\s\S]*\]/.exec(text);
  return m ? JSON.parse(m[0]) : [];
}

async function probeVitest(info) {
  const mod = await import(pathToFileURL(path.join(info.dir, 'dist', 'node.js')).href);
  const vite = version('vite');
  const options = {watch: false, run: true, reporters: [], cache: false, config: undefined};
  const v = info.version.split('.').map(Number);
  const vt = (vite || '0').split('.').map(Number);
  // vite >= 6.1 loads the config without writing a bundled copy next to it (the project is
  // read-only in the sandbox).
  if (vt[0] > 6 || (vt[0] === 6 && vt[1] >= 1)) options.configLoader = 'runner';
  if (related) options.related = [related];
  const ctx = await mod.createVitest('test', options, {}, {});
  try {
    const pick = (c) => ({name: c.name || '', root: c.root, include: c.include, exclude: c.exclude,
      includeSource: c.includeSource || [], dir: c.dir || null});
    const projects = (ctx.projects || []).map((p) => pick(p.config || {}));
    const config = {...pick(ctx.config), projects};
    // vite's resolve.alias as vite normalized it ([{find, replacement}]), vitest's own first.
    const viteConfig = (ctx.vite || ctx.server || {}).config || {};
    const aliases = [];
    for (const a of [].concat(ctx.config.alias || [], (viteConfig.resolve || {}).alias || [])) {
      if (!a || a.find === undefined || typeof a.replacement !== 'string') continue;
      aliases.push({find: reString(a.find), regex: a.find instanceof RegExp, whole: false, replacements: [a.replacement]});
    }
    const glob = async () => {
      let specs;
      if (typeof ctx.globTestSpecifications === 'function') specs = await ctx.globTestSpecifications();
      else if (typeof ctx.globTestSpecs === 'function') specs = await ctx.globTestSpecs();
      else specs = await ctx.globTestFiles();
      if (specs && !Array.isArray(specs) && specs.testFiles) specs = specs.testFiles;
      return specs || [];
    };
    const fileOf = (s) => s.moduleId || (Array.isArray(s) ? s[1] : s.filepath || s);
    const files = wantList ? [...new Set((await glob()).map(fileOf))] : null;
    let relatedFiles = null;
    if (related) {
      // vitest related: the test files whose module graph (vite's transform) reaches the file.
      // (vitest 1 and 2: Vitest.filterTestsBySource; 3: on its VitestSpecifications.)
      const owner = typeof ctx.filterTestsBySource === 'function' ? ctx
        : ctx.specifications && typeof ctx.specifications.filterTestsBySource === 'function' ? ctx.specifications : null;
      if (!owner) throw new Error(`vitest ${info.version} has no related filter`);
      relatedFiles = [...new Set((await owner.filterTestsBySource(await glob())).map(fileOf))];
    }
    if (v[0] < 3) delete config.dir;
    return {config, files, aliases, related: relatedFiles};
  } finally {
    await ctx.close();
  }
}

async function probeMocha(info) {
  const {loadOptions} = require(path.join(info.dir, 'lib', 'cli', 'options.js'));
  const args = loadOptions([]);
  const list = (x) => (x === undefined ? [] : [].concat(x));
  const config = {spec: list(args._ || args.spec), extension: list(args.extension), ignore: list(args.ignore),
    require: list(args.require), file: list(args.file), recursive: !!args.recursive, ui: args.ui || 'bdd',
    parallel: !!args.parallel, timeout: args.timeout === undefined ? null : args.timeout};
  let files = null;
  if (wantList) {
    const collect = require(path.join(info.dir, 'lib', 'cli', 'collect-files.js'));
    const res = collect({ignore: config.ignore, extension: config.extension, file: config.file,
      recursive: config.recursive, sort: !!args.sort, spec: config.spec});
    files = (Array.isArray(res) ? res : res.files).map((f) => path.resolve(root, f));
  }
  return {config, files};
}

async function main() {
  const pkg = readJson(path.join(root, 'package.json'));
  const runners = {};
  for (const name of ['jest', 'vitest', 'mocha']) {
    const r = findRunner(name);
    if (r) runners[name] = r;
  }
  const tools = {};
  for (const name of ['typescript', 'ts-jest', 'ts-node', 'tsx', '@swc/jest', 'babel-jest', 'vite']) {
    const v = version(name);
    if (v) tools[name] = v;
  }
  const chosen = forced ? {runner: forced, why: '--runner'} : chooseRunner(pkg, runners);
  const out = {ev: 'config', root, runner: chosen.runner, why: chosen.why, runners, tools,
    type: pkg && pkg.type === 'module' ? 'module' : 'commonjs',
    workspaces: pkg && pkg.workspaces ? [].concat(pkg.workspaces.packages || pkg.workspaces) : []};
  const info = chosen.runner && runners[chosen.runner];
  if (chosen.runner && chosen.runner !== 'node' && !info) {
    out.error = `${chosen.runner} is not installed (no node_modules/${chosen.runner} from ${root})`;
  } else if (info) {
    try {
      const probe = {jest: probeJest, vitest: probeVitest, mocha: probeMocha}[chosen.runner];
      const {config, files, aliases, related: relatedFiles} = await probe(info);
      out[chosen.runner] = config;
      if (files) out.files = files.map((f) => path.resolve(root, f)).sort();
      if (aliases) out.aliases = aliases;
      if (relatedFiles) out.related = relatedFiles.map((f) => path.resolve(root, f)).sort();
    } catch (e) {
      out.error = String((e && e.stack) || e).split('\n').slice(0, 6).join('\n');
    }
  }
  emit(out);
}

main().then(() => process.exit(0), (e) => {
  emit({ev: 'config', root, runner: null, error: String((e && e.stack) || e)});
  process.exit(1);
});
/*
)GLJS" // */
