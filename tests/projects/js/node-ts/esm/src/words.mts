export interface Counted {
  word: string;
  count: number;
}

export function countWords(text: string): Counted[] {
  const counts = new Map<string, number>();
  for (const w of text.toLowerCase().match(/[a-z']+/g) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts].map(([word, count]) => ({ word, count })).sort((a, b) => b.count - a.count || a.word.localeCompare(b.word));
}
