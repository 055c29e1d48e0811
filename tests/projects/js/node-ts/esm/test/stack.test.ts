import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Kind, Stack, replay } from '../src/stack.js';
import { countWords, type Counted } from '../src/words.mjs';

describe('Stack', () => {
  test('pushes and pops in LIFO order', () => {
    const s = new Stack<number>();
    s.push(1).push(2);
    assert.equal(s.pop(), 2);
    assert.equal(s.size, 1);
  });

  test('refuses to grow past its limit', () => {
    const s = new Stack<string>(1).push('a');
    assert.throws(() => s.push('b'), RangeError);
  });

  test('replays a list of operations', () => {
    const popped = replay<string>([[Kind.Push, 'a'], [Kind.Push, 'b'], [Kind.Pop], [Kind.Pop], [Kind.Pop]]);
    assert.deepEqual(popped, ['b', 'a']);
  });
});

test('counts words, most frequent first', () => {
  const counted: Counted[] = countWords("the cat and the hat; the end");
  assert.deepEqual(counted.slice(0, 2), [
    { word: 'the', count: 3 },
    { word: 'and', count: 1 },
  ]);
});
