import { interval, length, contains, overlap, intersect, format, Overlap, IntervalError } from '../src/interval';

describe('interval', () => {
  it('builds a closed interval', () => {
    expect(interval(2, 5)).toEqual({ lo: 2, hi: 5 });
  });

  it('rejects reversed bounds with an IntervalError', () => {
    expect(() => interval(5, 2)).toThrow(IntervalError);
    expect(() => interval(5, 2)).toThrow('empty interval [5, 2]');
  });

  it('rejects fractional bounds', () => {
    expect(() => interval(1.5, 2)).toThrow(TypeError);
  });
});

describe('measures', () => {
  test('length counts both ends', () => {
    expect(length(interval(3, 3))).toBe(1);
    expect(length(interval(-2, 2))).toBe(5);
  });

  test.each<[number, boolean]>([
    [1, true],
    [4, true],
    [0, false],
    [5, false],
  ])('contains(%i) is %s', (x, expected) => {
    expect(contains(interval(1, 4), x)).toBe(expected);
  });
});

describe('overlap', () => {
  const cases: Array<{ a: [number, number]; b: [number, number]; want: Overlap }> = [
    { a: [1, 3], b: [5, 9], want: Overlap.None },
    { a: [1, 3], b: [4, 9], want: Overlap.Touching },
    { a: [1, 5], b: [4, 9], want: Overlap.Partial },
    { a: [1, 9], b: [4, 5], want: Overlap.Contains },
    { a: [4, 5], b: [1, 9], want: Overlap.Inside },
  ];
  for (const { a, b, want } of cases) {
    it(`[${a}] and [${b}] are ${want}`, () => {
      expect(overlap(interval(...a), interval(...b))).toBe(want);
    });
  }

  describe('intersect', () => {
    it('returns the common part', () => {
      expect(intersect(interval(1, 5), interval(3, 9))).toEqual({ lo: 3, hi: 5 });
    });

    it('returns null for disjoint intervals', () => {
      expect(intersect(interval(1, 2), interval(3, 4))).toBeNull();
    });
  });
});

describe('format', () => {
  it('writes a single point without a dash', () => {
    expect(format(interval(7, 7))).toBe('7');
  });

  it('writes a range with a dash', () => {
    expect(format(interval(-3, 4))).toBe('-3-4');
  });
});
