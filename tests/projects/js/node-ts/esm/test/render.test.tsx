/** @jsxImportSource ../src/jsx */
import { test } from 'node:test';
import assert from 'node:assert/strict';

type Props = { name: string };
const Greeting = ({ name }: Props): string => <p class="greeting">Hello {name}</p>;

test('renders a greeting', () => {
  assert.equal(Greeting({ name: 'Ada' }), '<p class="greeting">Hello Ada</p>');
});
