/** A semantic version: MAJOR.MINOR.PATCH with an optional pre-release tag. */
export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly pre: readonly (string | number)[];
}

export type Part = 'major' | 'minor' | 'patch';

export class VersionError extends Error {
  constructor(readonly input: string) {
    super(`not a semantic version: "${input}"`);
    this.name = 'VersionError';
  }
}

const PATTERN = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;

export function parse(input: string): Version {
  const m = PATTERN.exec(input.trim());
  if (!m) throw new VersionError(input);
  const pre = m[4] ? m[4].split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [];
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre };
}

export function format(v: Version): string {
  const core = `${v.major}.${v.minor}.${v.patch}`;
  return v.pre.length ? `${core}-${v.pre.join('.')}` : core;
}

export function bump(v: Version, part: Part): Version {
  switch (part) {
    case 'major':
      return { major: v.major + 1, minor: 0, patch: 0, pre: [] };
    case 'minor':
      return { major: v.major, minor: v.minor + 1, patch: 0, pre: [] };
    case 'patch':
      return { major: v.major, minor: v.minor, patch: v.pre.length ? v.patch : v.patch + 1, pre: [] };
  }
}
