const HTML: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML[c]);
}

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function truncate(text: string, max: number, ellipsis = '…'): string {
  if (max < ellipsis.length) throw new RangeError(`max ${max} is shorter than the ellipsis`);
  return text.length <= max ? text : text.slice(0, max - ellipsis.length) + ellipsis;
}
