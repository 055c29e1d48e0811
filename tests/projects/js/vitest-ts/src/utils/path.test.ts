import { describe, expect, it } from 'vitest';
import { getPath } from './path.js';

const data = { user: { name: 'Ada', tags: ['x', 'y'], address: { city: 'London' } }, n: 0 };

describe('getPath', () => {
  it('reads nested keys', () => {
    expect(getPath(data, 'user.address.city')).toBe('London');
  });

  it('reads array items by index', () => {
    expect(getPath(data, 'user.tags.1')).toBe('y');
  });

  it('returns undefined past a missing key', () => {
    expect(getPath(data, 'user.phone.number')).toBeUndefined();
  });

  it('keeps falsy values', () => {
    expect(getPath(data, 'n')).toBe(0);
  });
});
