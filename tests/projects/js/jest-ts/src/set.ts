import { Interval, interval, format, overlap, Overlap } from './interval';
import type { RangeInput } from './types';

/** A set of integers kept as sorted, disjoint, non-touching intervals. */
export class IntervalSet implements Iterable<Interval> {
  private parts: Interval[] = [];

  static of(...ranges: RangeInput[]): IntervalSet {
    const s = new IntervalSet();
    for (const r of ranges) {
      if (typeof r === 'number') s.add(interval(r, r));
      else s.add(interval(r[0], r[1]));
    }
    return s;
  }

  get size(): number {
    return this.parts.reduce((n, p) => n + (p.hi - p.lo + 1), 0);
  }

  get intervals(): readonly Interval[] {
    return this.parts;
  }

  add(i: Interval): this {
    let lo = i.lo;
    let hi = i.hi;
    const kept: Interval[] = [];
    for (const p of this.parts) {
      if (overlap(p, { lo, hi }) === Overlap.None) {
        kept.push(p);
      } else {
        lo = Math.min(lo, p.lo);
        hi = Math.max(hi, p.hi);
      }
    }
    kept.push({ lo, hi });
    kept.sort((a, b) => a.lo - b.lo);
    this.parts = kept;
    return this;
  }

  remove(i: Interval): this {
    const out: Interval[] = [];
    for (const p of this.parts) {
      if (p.hi < i.lo || p.lo > i.hi) {
        out.push(p);
        continue;
      }
      if (p.lo < i.lo) out.push({ lo: p.lo, hi: i.lo - 1 });
      if (p.hi > i.hi) out.push({ lo: i.hi + 1, hi: p.hi });
    }
    this.parts = out;
    return this;
  }

  has(x: number): boolean {
    let lo = 0;
    let hi = this.parts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const p = this.parts[mid];
      if (x < p.lo) hi = mid - 1;
      else if (x > p.hi) lo = mid + 1;
      else return true;
    }
    return false;
  }

  union(other: IntervalSet): IntervalSet {
    const s = new IntervalSet();
    for (const p of this.parts) s.add(p);
    for (const p of other.parts) s.add(p);
    return s;
  }

  toString(): string {
    return this.parts.map(format).join(',');
  }

  [Symbol.iterator](): Iterator<Interval> {
    return this.parts[Symbol.iterator]();
  }
}

/** Parses "1-3,7,10-12" into a set. */
export function parseRanges(text: string): IntervalSet {
  const s = new IntervalSet();
  for (const piece of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(-?\d+)(?:\s*-\s*(-?\d+))?$/.exec(piece);
    if (!m) throw new SyntaxError(`bad range: ${JSON.stringify(piece)}`);
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    s.add(interval(lo, hi));
  }
  return s;
}
