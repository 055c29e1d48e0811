import { IntervalSet, parseRanges } from '@/set';
import { interval } from '@/interval';

describe('IntervalSet', () => {
  let set: IntervalSet;

  beforeEach(() => {
    set = IntervalSet.of([1, 3], [10, 12]);
  });

  describe('add', () => {
    it('merges overlapping intervals', () => {
      set.add(interval(2, 11));
      expect(set.toString()).toBe('1-12');
    });

    it('merges touching intervals', () => {
      set.add(interval(4, 9));
      expect(set.intervals).toHaveLength(1);
    });

    it('keeps disjoint intervals sorted', () => {
      set.add(interval(6, 7));
      expect(set.toString()).toBe('1-3,6-7,10-12');
    });
  });

  describe('remove', () => {
    it('splits an interval', () => {
      set.remove(interval(2, 2));
      expect([...set]).toEqual([
        { lo: 1, hi: 1 },
        { lo: 3, hi: 3 },
        { lo: 10, hi: 12 },
      ]);
    });

    it('removes across intervals', () => {
      set.remove(interval(3, 10));
      expect(set.toString()).toBe('1-2,11-12');
    });
  });

  describe('queries', () => {
    it.each([1, 2, 3, 10, 11, 12])('has %i', (x) => {
      expect(set.has(x)).toBe(true);
    });

    it.each([0, 4, 9, 13])('lacks %i', (x) => {
      expect(set.has(x)).toBe(false);
    });

    it('counts its members', () => {
      expect(set.size).toBe(6);
    });
  });

  it('unions two sets', () => {
    expect(set.union(IntervalSet.of(4, [20, 21])).toString()).toBe('1-4,10-12,20-21');
  });

  it.todo('intersects two sets');
});

describe('parseRanges', () => {
  it('parses a list of ranges', () => {
    expect(parseRanges('1-3, 7,10 - 12').toString()).toBe('1-3,7,10-12');
  });

  it('normalises overlapping input', () => {
    expect(parseRanges('5-8,1-6').intervals).toEqual([{ lo: 1, hi: 8 }]);
  });

  it('reports the bad piece', () => {
    expect(() => parseRanges('1-3,x')).toThrow(/bad range: "x"/);
  });

  it.skip('accepts open ranges like 5-', () => {
    expect(parseRanges('5-').size).toBe(Infinity);
  });
});
