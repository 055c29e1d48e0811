export * from './interval';
export * from './set';
