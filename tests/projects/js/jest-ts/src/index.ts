export * from './interval';
export * from './set';
export type { RangeInput } from './types';
