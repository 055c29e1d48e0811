// A tiny jest-style expect over node:assert (what some mocha projects keep instead of chai).
import { strict as assert } from 'node:assert';

export function expect<T>(actual: T) {
  return {
    toBe(expected: T): void {
      assert.strictEqual(actual, expected);
    },
    toEqual(expected: T): void {
      assert.deepStrictEqual(actual, expected);
    },
  };
}
