export { parse, format, bump, VersionError } from './version';
export type { Version, Part } from './version';
export { compare, sort, maxSatisfying } from './compare';
