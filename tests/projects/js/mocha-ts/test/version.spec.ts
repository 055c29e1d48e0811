import { strict as assert } from 'node:assert';
import { bump, format, parse, VersionError } from '../src/version';

describe('parse', () => {
  it('reads the three numbers', () => {
    assert.deepEqual(parse('1.2.3'), { major: 1, minor: 2, patch: 3, pre: [] });
  });

  it('accepts a leading v and spaces', () => {
    assert.equal(format(parse(' v10.0.1 ')), '10.0.1');
  });

  it('splits the pre-release tag into numbers and words', () => {
    assert.deepEqual(parse('2.0.0-rc.1').pre, ['rc', 1]);
  });

  it('rejects what is not a version', () => {
    assert.throws(() => parse('1.2'), VersionError);
    assert.throws(() => parse('one.two.three'), /not a semantic version/);
  });
});

describe('bump', () => {
  const v = parse('1.4.7');

  for (const [part, want] of [
    ['major', '2.0.0'],
    ['minor', '1.5.0'],
    ['patch', '1.4.8'],
  ] as const) {
    it(`bumps the ${part} part`, () => {
      assert.equal(format(bump(v, part)), want);
    });
  }

  it('releases a pre-release without bumping the patch', () => {
    assert.equal(format(bump(parse('1.4.8-beta.2'), 'patch')), '1.4.8');
  });

  it.skip('bumps a pre-release counter', () => {
    // not supported yet
  });
});
