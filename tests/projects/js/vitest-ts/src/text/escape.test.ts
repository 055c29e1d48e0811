import { describe, expect, it, test } from 'vitest';
import { escapeHtml, slugify, truncate } from './escape.js';

describe('escapeHtml', () => {
  it('escapes the five special characters', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;',
    );
  });

  it('leaves plain text alone', () => {
    expect(escapeHtml('plain text')).toBe('plain text');
  });
});

describe('slugify', () => {
  test.each([
    ['Hello, World!', 'hello-world'],
    ['  Crème brûlée  ', 'creme-brulee'],
    ['a--b__c', 'a-b-c'],
    ['', ''],
  ])('slugify(%j) -> %j', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });
});

describe('truncate', () => {
  it('keeps short text', () => {
    expect(truncate('short', 10)).toBe('short');
  });

  it('cuts long text and adds an ellipsis', () => {
    expect(truncate('abcdefghij', 5)).toBe('abcd…');
  });

  it('refuses a max shorter than the ellipsis', () => {
    expect(() => truncate('abc', 2, '...')).toThrowError(RangeError);
  });

  it.todo('truncates on word boundaries');
});
