'use strict';

const {expect} = require('chai');
const {parse} = require('..');

describe('parse', function () {
  it('parses a simple string', function () {
    expect(parse('a=b&c=d')).to.deep.equal({a: 'b', c: 'd'});
  });

  it('ignores a leading question mark', function () {
    expect(parse('?a=1')).to.deep.equal({a: '1'});
  });

  it('gives an empty value to a key without =', function () {
    expect(parse('flag&x=1')).to.deep.equal({flag: '', x: '1'});
  });

  it('returns an empty object for non-strings', function () {
    expect(parse(undefined)).to.be.an('object').that.is.empty;
  });

  describe('nesting', function () {
    it('builds nested objects from brackets', function () {
      expect(parse('user[name]=Ada&user[lang]=en')).to.deep.equal({user: {name: 'Ada', lang: 'en'}});
    });

    it('builds arrays from empty brackets', function () {
      expect(parse('a[]=1&a[]=2')).to.deep.equal({a: ['1', '2']});
    });

    it('honours explicit indices', function () {
      expect(parse('a[1]=y&a[0]=x')).to.have.property('a').that.has.members(['x', 'y']);
    });

    it('stops at the depth limit', function () {
      expect(parse('a[b][c][d]=1', {depth: 1})).to.deep.equal({a: {b: {'[c][d]': '1'}}});
    });

    it('reads dots when allowDots is set', function () {
      expect(parse('a.b.c=1', {allowDots: true})).to.deep.equal({a: {b: {c: '1'}}});
    });

    it('treats large indices as object keys', function () {
      const result = parse('a[100]=x');
      expect(result.a).to.deep.equal({100: 'x'});
    });
  });

  describe('options', function () {
    it('accepts another delimiter', function () {
      expect(parse('a=1;b=2', {delimiter: ';'})).to.deep.equal({a: '1', b: '2'});
    });

    it('limits the number of parameters', function () {
      expect(Object.keys(parse('a=1&b=2&c=3', {parameterLimit: 2}))).to.have.lengthOf(2);
    });

    it('supports regular-expression delimiters');
  });
});
