import { beforeEach, describe, expect, it } from 'vitest';
import { Scheduler } from '../src/index.js';

describe('Scheduler', () => {
  let s: Scheduler;

  beforeEach(() => {
    s = new Scheduler();
    s.add({ name: 'backup', every: '1h' });
    s.add({ name: 'ping', every: '30s' });
  });

  it('runs every job the first time', () => {
    expect(s.due(0)).toEqual(['backup', 'ping']);
  });

  it('waits for the interval', () => {
    s.markRun('backup', 0);
    s.markRun('ping', 0);
    expect(s.due(30_000)).toEqual(['ping']);
    expect(s.due(3_600_000)).toEqual(['backup', 'ping']);
  });

  it('refuses duplicate names', () => {
    expect(() => s.add({ name: 'ping', every: '1m' })).toThrowError('duplicate job: ping');
  });

  it('describes a job with the shared formatter', () => {
    expect(s.describe('backup')).toBe('backup: every 1h');
    expect(s.describe('nope')).toBe('nope: unknown');
  });

  it('rejects a bad interval from the util package', () => {
    expect(() => s.add({ name: 'x', every: 'often' })).toThrowError(SyntaxError);
  });

  it.todo('persists run times');
});
