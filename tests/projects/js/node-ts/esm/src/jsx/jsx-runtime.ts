export function jsx(tag: string, props: Record<string, unknown>): string {
  const { children, ...attrs } = props;
  const a = Object.entries(attrs).map(([k, v]) => ` ${k}="${String(v)}"`).join('');
  const kids = ([] as unknown[]).concat(children ?? []).join('');
  return `<${tag}${a}>${kids}</${tag}>`;
}
export const jsxs = jsx;
