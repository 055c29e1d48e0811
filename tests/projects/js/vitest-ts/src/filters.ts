import { escapeHtml, slugify, truncate } from './text/escape.js';

export type Filter = (value: unknown, ...args: string[]) => unknown;

export const builtinFilters: Record<string, Filter> = {
  upper: (v) => String(v).toUpperCase(),
  lower: (v) => String(v).toLowerCase(),
  escape: (v) => escapeHtml(String(v)),
  slug: (v) => slugify(String(v)),
  truncate: (v, max = '20') => truncate(String(v), Number(max)),
  default: (v, fallback = '') => (v === undefined || v === null || v === '' ? fallback : v),
  join: (v, sep = ', ') => (Array.isArray(v) ? v.join(sep) : String(v)),
  count: (v) => (Array.isArray(v) ? v.length : typeof v === 'string' ? v.length : 0),
};
