// Finds the greenlight binary. Pure apart from the Host it is given (no 'vscode' import), so the
// unit tests drive it with a fake file system.
//
// Order, like vscode-clangd's clangd.path:
//   1. greenlight.server.path when set: ~, ${workspaceFolder}, ${userHome} and ${env:NAME} are
//      expanded; a bare name is looked up on PATH; a relative path is taken from the first
//      workspace folder. When it is set but unusable that is an error: silently running some
//      other binary than the one the user named would hide their mistake.
//   2. `greenlight` on PATH.
//   3. Trusted workspaces only: build/greenlight (then build-*/greenlight is NOT guessed) in a
//      workspace folder, for people working on greenlight itself. Never in an untrusted
//      workspace, where it would run a binary the workspace brought.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface PathHost {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homedir: string;
  readonly workspaceFolders: readonly string[];
  readonly trusted: boolean;
  readonly platform: NodeJS.Platform;
  isExecutableFile(file: string): boolean;
}

export type ServerPathSource = 'setting' | 'PATH' | 'workspace';

export type Resolution =
  | { ok: true; path: string; source: ServerPathSource }
  | { ok: false; message: string; tried: string[] };

export const kBinaryName = 'greenlight';

export function defaultHost(workspaceFolders: readonly string[], trusted: boolean): PathHost {
  return {
    env: process.env,
    homedir: os.homedir(),
    workspaceFolders,
    trusted,
    platform: process.platform,
    isExecutableFile(file: string): boolean {
      try {
        if (!fs.statSync(file).isFile()) return false;
        fs.accessSync(file, process.platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
  };
}

function pathApi(host: PathHost): path.PlatformPath {
  return host.platform === 'win32' ? path.win32 : path.posix;
}

// Expands ~, ${workspaceFolder}, ${userHome} and ${env:NAME}. Returns an error text for a
// variable it cannot expand rather than leaving "${...}" in a path.
export function expandVariables(value: string, host: PathHost): { value: string } | { error: string } {
  let error: string | undefined;
  let expanded = value.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
    if (name === 'workspaceFolder') {
      const folder = host.workspaceFolders[0];
      if (folder === undefined) error ??= `${whole} is used but no folder is open`;
      return folder ?? whole;
    }
    if (name === 'userHome') return host.homedir;
    if (name.startsWith('env:')) return host.env[name.slice(4)] ?? '';
    error ??= `unknown variable ${whole} (supported: \${workspaceFolder}, \${userHome}, \${env:NAME})`;
    return whole;
  });
  if (expanded === '~' || expanded.startsWith('~/')) expanded = host.homedir + expanded.slice(1);
  return error === undefined ? { value: expanded } : { error };
}

function candidatesOnPath(name: string, host: PathHost): string[] {
  const p = pathApi(host);
  const pathVar = host.env['PATH'] ?? host.env['Path'] ?? '';
  const dirs = pathVar.split(host.platform === 'win32' ? ';' : ':').filter((d) => d.length > 0);
  const names = host.platform === 'win32' && !/\.exe$/i.test(name) ? [name + '.exe', name] : [name];
  return dirs.flatMap((dir) => names.map((n) => p.join(dir, n)));
}

export function resolveServerPath(setting: string, host: PathHost): Resolution {
  const p = pathApi(host);
  const tried: string[] = [];
  const configured = setting.trim();
  if (configured !== '') {
    const expanded = expandVariables(configured, host);
    if ('error' in expanded) {
      return { ok: false, message: `greenlight.server.path "${configured}": ${expanded.error}`, tried };
    }
    const value = expanded.value;
    const isBareName = !value.includes('/') && !(host.platform === 'win32' && value.includes('\\'));
    let candidates: string[];
    if (isBareName) candidates = candidatesOnPath(value, host);
    else if (p.isAbsolute(value)) candidates = [value];
    else if (host.workspaceFolders[0] !== undefined) candidates = [p.resolve(host.workspaceFolders[0], value)];
    else {
      return {
        ok: false,
        message: `greenlight.server.path "${configured}" is relative but no folder is open; use an absolute path`,
        tried,
      };
    }
    for (const candidate of candidates) {
      tried.push(candidate);
      if (host.isExecutableFile(candidate)) return { ok: true, path: candidate, source: 'setting' };
    }
    const where = isBareName ? `not found on PATH` : `${tried[0]} is not an executable file`;
    return { ok: false, message: `greenlight.server.path "${configured}": ${where}`, tried };
  }

  for (const candidate of candidatesOnPath(kBinaryName, host)) {
    tried.push(candidate);
    if (host.isExecutableFile(candidate)) return { ok: true, path: candidate, source: 'PATH' };
  }
  if (host.trusted) {
    for (const folder of host.workspaceFolders) {
      const candidate = p.join(folder, 'build', host.platform === 'win32' ? kBinaryName + '.exe' : kBinaryName);
      tried.push(candidate);
      if (host.isExecutableFile(candidate)) return { ok: true, path: candidate, source: 'workspace' };
    }
  }
  const hint = host.trusted ? '' : ' (build/greenlight in the workspace is not used: the workspace is not trusted)';
  return {
    ok: false,
    message: `greenlight binary not found on PATH${hint}; set greenlight.server.path`,
    tried,
  };
}
