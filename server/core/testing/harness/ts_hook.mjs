//\
/*
R"GLJS(
*/
// greenlight's TypeScript hook for plain node (a project with no runner that transforms
// TypeScript itself: the node:test path, a script): `node --import /work/.gl/ts_hook.mjs
// test.ts` runs .ts, .mts, .cts and .tsx files, as ES modules and as CommonJS. Embedded like
// node_harness.js; amaro.js (third_party/amaro: node's own type stripper, swc in WebAssembly)
// is written beside it.
//
// - Types are stripped with amaro's strip-only mode, which blanks them out in place: every line
//   and column of the output is the .ts file's, so stacks need no mapping. A file strip-only
//   cannot serve (enum, namespace, parameter properties, <T>x casts) goes through amaro's
//   transform mode with an inline source map, and source maps are enabled for the process.
// - .tsx: amaro has no JSX. The project's own `typescript` (resolved from the file) transpiles it
//   (jsx: react-jsx, inline source map); without it the file fails with a message saying so.
// - Formats as node decides them: .mts ES module, .cts CommonJS, .ts/.tsx by the nearest
//   package.json "type", except that a file written with import/export statements loads as an
//   ES module (what node's module detection does for .js).
// - Imports written the TypeScript way resolve: './x.js' finds x.ts (x.mjs finds x.mts, x.cjs
//   x.cts), and './x' without an extension finds x.ts, x.tsx, x/index.ts.
// The main thread registers this same file as the module hooks (node >= 20.6: module.register)
// and serves require() through require.extensions; the hooks thread exports resolve and load.
import fs from 'node:fs';
import path from 'node:path';
import {createRequire} from 'node:module';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {isMainThread} from 'node:worker_threads';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const TS_EXTS = new Set(['.ts', '.mts', '.cts', '.tsx']);

let amaro = null;
function loadAmaro() {
  if (!amaro) amaro = require(path.join(HERE, 'amaro.js'));
  return amaro;
}

// amaro's errors are plain objects {code, message, snippet, startLine, startColumn}: a
// SyntaxError whose stack names the place the way node's own does ("file:line" first).
function syntaxError(e, filename) {
  if (!e || typeof e !== 'object' || e instanceof Error || !e.code) return e;
  const err = new SyntaxError(String(e.message));
  err.stack = `${filename}:${e.startLine || 1}\n${e.snippet || ''}\n\nSyntaxError: ${e.message}\n    at ${filename}:${e.startLine || 1}:${(e.startColumn || 0) + 1}`;
  err.code = 'ERR_INVALID_TYPESCRIPT_SYNTAX';
  return err;
}

function inlineMap(code, map) {
  if (!map) return code;
  const text = typeof map === 'string' ? map : JSON.stringify(map);
  return code + '\n//# sourceMappingURL=data:application/json;base64,' + Buffer.from(text).toString('base64') + '\n';
}

function transformTsx(source, filename) {
  let ts;
  try {
    ts = createRequire(filename)('typescript');
  } catch (e) {
    const err = new Error(`${filename}: .tsx needs the project's own "typescript" package (npm i -D typescript) ` +
      'or a runner that transforms it (jest with ts-jest, vitest)');
    err.code = 'ERR_GL_NO_TSX_TRANSFORM';
    throw err;
  }
  const out = ts.transpileModule(source, {fileName: filename, compilerOptions: {
    jsx: ts.JsxEmit.ReactJSX, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022,
    inlineSourceMap: true, inlineSources: false, esModuleInterop: true, verbatimModuleSyntax: false}});
  return out.outputText;
}

// The JavaScript of a TypeScript file.
export function transformTs(source, filename) {
  if (path.extname(filename) === '.tsx') return transformTsx(source, filename);
  const a = loadAmaro();
  try {
    return a.transformSync(source, {mode: 'strip-only', filename}).code;
  } catch (e) {
    if (!e || e.code !== 'UnsupportedSyntax') throw syntaxError(e, filename);
  }
  try {
    const {code, map} = a.transformSync(source, {mode: 'transform', sourceMap: true, filename});
    return inlineMap(code, map);
  } catch (e) {
    throw syntaxError(e, filename);
  }
}

const typeCache = new Map();
function packageType(file) {
  const dirs = [];
  let type = 'commonjs';
  for (let d = path.dirname(file); ; d = path.dirname(d)) {
    if (typeCache.has(d)) {
      type = typeCache.get(d);
      break;
    }
    dirs.push(d);
    const pj = path.join(d, 'package.json');
    if (fs.existsSync(pj)) {
      try {
        type = JSON.parse(fs.readFileSync(pj, 'utf8')).type === 'module' ? 'module' : 'commonjs';
      } catch (e) {
        type = 'commonjs';
      }
      break;
    }
    if (d === path.dirname(d)) break;
  }
  for (const d of dirs) typeCache.set(d, type);
  return type;
}

const ESM_SYNTAX = /^[ \t]*(import[ \t]*[\w*{"'$]|import\.meta\b|export[ \t]*[\w{*])/m;
function formatOf(file, code) {
  const ext = path.extname(file);
  if (ext === '.mts') return 'module';
  if (ext === '.cts') return 'commonjs';
  const type = packageType(file);
  if (type === 'module') return 'module';
  return ESM_SYNTAX.test(code) ? 'module' : 'commonjs';
}

// './x.js' -> './x.ts', './x.tsx'; './x' -> './x.ts', './x.tsx', './x/index.ts', './x/index.tsx'.
function candidates(specifier) {
  const m = /^(.*?)(\.[cm]?js|\.jsx)?$/.exec(specifier);
  const base = m[1];
  switch (m[2]) {
    case '.js':
      return [base + '.ts', base + '.tsx'];
    case '.jsx':
      return [base + '.tsx'];
    case '.mjs':
      return [base + '.mts'];
    case '.cjs':
      return [base + '.cts'];
    default:
      return [specifier + '.ts', specifier + '.tsx', specifier + '/index.ts', specifier + '/index.tsx'];
  }
}

function isPathLike(specifier) {
  return /^(\.{1,2}(\/|$)|\/|file:)/.test(specifier);
}

// ---- module hooks (the hooks thread) ----
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (e) {
    if (!isPathLike(specifier) || !context.parentURL ||
        (e.code !== 'ERR_MODULE_NOT_FOUND' && e.code !== 'ERR_UNSUPPORTED_DIR_IMPORT')) throw e;
    for (const candidate of candidates(specifier)) {
      try {
        return await nextResolve(candidate, context);
      } catch (e2) {
        // next candidate
      }
    }
    throw e;
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:')) return nextLoad(url, context);
  const file = fileURLToPath(url);
  if (!TS_EXTS.has(path.extname(file))) return nextLoad(url, context);
  const code = transformTs(fs.readFileSync(file, 'utf8'), file);
  const format = formatOf(file, code);
  if (format === 'module') return {format, source: code, shortCircuit: true};
  // CommonJS: node's CommonJS loader reads the file, through require.extensions below.
  return {format: 'commonjs', source: null, shortCircuit: true};
}

// ---- the main thread ----
if (isMainThread) {
  const Module = require('node:module');
  process.setSourceMapsEnabled(true);
  const compileTs = function (module, filename) {
    module._compile(transformTs(fs.readFileSync(filename, 'utf8'), filename), filename);
  };
  for (const ext of ['.ts', '.cts', '.tsx']) {
    if (!Module._extensions[ext]) Module._extensions[ext] = compileTs;
  }
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, parent, ...rest) {
    try {
      return resolveFilename.call(this, request, parent, ...rest);
    } catch (e) {
      if (e.code !== 'MODULE_NOT_FOUND' || !isPathLike(request) || !/\.[cm]?jsx?$/.test(request)) throw e;
      for (const candidate of candidates(request)) {
        try {
          return resolveFilename.call(this, candidate, parent, ...rest);
        } catch (e2) {
          // next candidate
        }
      }
      throw e;
    }
  };
  Module.register(import.meta.url, pathToFileURL(HERE + path.sep));
}
/*
)GLJS" // */
