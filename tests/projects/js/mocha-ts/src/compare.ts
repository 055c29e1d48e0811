import { parse, Version } from './version';

function comparePre(a: Version['pre'], b: Version['pre']): number {
  if (!a.length || !b.length) return b.length - a.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x < y ? -1 : 1;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** -1, 0 or 1, as a sort comparator wants; strings are parsed first. */
export function compare(a: Version | string, b: Version | string): number {
  const x = typeof a === 'string' ? parse(a) : a;
  const y = typeof b === 'string' ? parse(b) : b;
  for (const key of ['major', 'minor', 'patch'] as const) {
    if (x[key] !== y[key]) return x[key] < y[key] ? -1 : 1;
  }
  return comparePre(x.pre, y.pre);
}

export function sort(versions: string[]): string[] {
  return [...versions].sort(compare);
}

export function maxSatisfying(versions: string[], floor: string): string | null {
  const ok = versions.filter((v) => compare(v, floor) >= 0);
  return ok.length ? sort(ok)[ok.length - 1] : null;
}
