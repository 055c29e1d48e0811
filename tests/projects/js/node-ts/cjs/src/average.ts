// CommonJS package, written with ES module syntax (the way tsc users write it): loads as an ES module.
export function average(xs: readonly number[]): number {
  if (xs.length === 0) throw new RangeError('average of nothing');
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}
