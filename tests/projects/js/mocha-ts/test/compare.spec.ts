import { expect } from './helpers/expect';
import { compare, maxSatisfying, sort } from '../src';

describe('compare', () => {
  it('orders by major, minor, then patch', () => {
    expect(compare('1.2.3', '1.2.4')).toBe(-1);
    expect(compare('1.10.0', '1.9.9')).toBe(1);
    expect(compare('3.0.0', '3.0.0')).toBe(0);
  });

  context('pre-releases', () => {
    it('puts a pre-release before its release', () => {
      expect(compare('1.0.0-alpha', '1.0.0')).toBe(-1);
    });

    it('compares numeric identifiers as numbers', () => {
      expect(compare('1.0.0-rc.10', '1.0.0-rc.9')).toBe(1);
    });
  });
});

describe('sort and maxSatisfying', () => {
  const versions = ['1.0.0', '0.9.1', '1.0.0-beta.2', '2.1.0', '1.10.3'];

  it('sorts ascending', () => {
    expect(sort(versions)).toEqual(['0.9.1', '1.0.0-beta.2', '1.0.0', '1.10.3', '2.1.0']);
  });

  it('picks the highest at or above the floor', () => {
    expect(maxSatisfying(versions, '1.1.0')).toBe('2.1.0');
    expect(maxSatisfying(versions, '3.0.0')).toBe(null);
  });
});
