import { builtinFilters, type Filter } from './filters.js';
import { getPath } from './utils/path.js';

export class TemplateError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
    this.name = 'TemplateError';
  }
}

interface Part {
  kind: 'text' | 'expr';
  value: string;
  filters: Array<{ name: string; args: string[] }>;
  at: number;
}

export interface RenderOptions {
  filters?: Record<string, Filter>;
  strict?: boolean;
}

export function parse(source: string): Part[] {
  const parts: Part[] = [];
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf('{{', i);
    if (open < 0) {
      parts.push({ kind: 'text', value: source.slice(i), filters: [], at: i });
      break;
    }
    if (open > i) parts.push({ kind: 'text', value: source.slice(i, open), filters: [], at: i });
    const close = source.indexOf('}}', open + 2);
    if (close < 0) throw new TemplateError('unclosed {{', open);
    const [head, ...pipes] = source.slice(open + 2, close).split('|').map((s) => s.trim());
    if (!head) throw new TemplateError('empty expression', open);
    const filters = pipes.map((p) => {
      const [name, ...args] = p.split(':').map((s) => s.trim());
      return { name, args };
    });
    parts.push({ kind: 'expr', value: head, filters, at: open });
    i = close + 2;
  }
  return parts;
}

export function render(source: string, data: Record<string, unknown>, options: RenderOptions = {}): string {
  const filters = { ...builtinFilters, ...options.filters };
  let out = '';
  for (const part of parse(source)) {
    if (part.kind === 'text') {
      out += part.value;
      continue;
    }
    let value = getPath(data, part.value);
    if (value === undefined && options.strict) throw new TemplateError(`undefined variable ${part.value}`, part.at);
    for (const f of part.filters) {
      const fn = filters[f.name];
      if (!fn) throw new TemplateError(`unknown filter ${f.name}`, part.at);
      value = fn(value, ...f.args);
    }
    out += value === undefined || value === null ? '' : String(value);
  }
  return out;
}

export async function renderAsync(
  source: string,
  load: (name: string) => Promise<Record<string, unknown>>,
  name: string,
): Promise<string> {
  return render(source, await load(name));
}
