/** What IntervalSet.of takes: a [lo, hi] pair, or a single point. */
export type RangeInput = [number, number] | number;
