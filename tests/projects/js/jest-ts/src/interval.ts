/** A closed interval [lo, hi] of integers. */
export interface Interval {
  readonly lo: number;
  readonly hi: number;
}

export enum Overlap {
  None = 'none',
  Touching = 'touching',
  Partial = 'partial',
  Contains = 'contains',
  Inside = 'inside',
}

export class IntervalError extends Error {
  constructor(public readonly lo: number, public readonly hi: number) {
    super(`empty interval [${lo}, ${hi}]`);
    this.name = 'IntervalError';
  }
}

export function interval(lo: number, hi: number): Interval {
  if (!Number.isInteger(lo) || !Number.isInteger(hi)) {
    throw new TypeError(`interval bounds must be integers: ${lo}, ${hi}`);
  }
  if (lo > hi) throw new IntervalError(lo, hi);
  return { lo, hi };
}

export function length(i: Interval): number {
  return i.hi - i.lo + 1;
}

export function contains(i: Interval, x: number): boolean {
  return x >= i.lo && x <= i.hi;
}

export function overlap(a: Interval, b: Interval): Overlap {
  if (a.hi < b.lo - 1 || b.hi < a.lo - 1) return Overlap.None;
  if (a.hi === b.lo - 1 || b.hi === a.lo - 1) return Overlap.Touching;
  if (a.lo <= b.lo && a.hi >= b.hi) return Overlap.Contains;
  if (b.lo <= a.lo && b.hi >= a.hi) return Overlap.Inside;
  return Overlap.Partial;
}

export function intersect(a: Interval, b: Interval): Interval | null {
  const lo = Math.max(a.lo, b.lo);
  const hi = Math.min(a.hi, b.hi);
  return lo <= hi ? { lo, hi } : null;
}

export function format(i: Interval): string {
  return i.lo === i.hi ? `${i.lo}` : `${i.lo}-${i.hi}`;
}
