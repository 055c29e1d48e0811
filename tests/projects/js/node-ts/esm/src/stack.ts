export enum Kind {
  Push = 'push',
  Pop = 'pop',
}

export class Stack<T> {
  private items: T[] = [];
  constructor(private readonly limit: number = Infinity) {}

  push(item: T): this {
    if (this.items.length >= this.limit) throw new RangeError(`stack full (${this.limit})`);
    this.items.push(item);
    return this;
  }

  pop(): T | undefined {
    return this.items.pop();
  }

  get size(): number {
    return this.items.length;
  }
}

export function replay<T>(ops: Array<[Kind, T?]>, limit?: number): T[] {
  const s = new Stack<T>(limit);
  const popped: T[] = [];
  for (const [kind, value] of ops) {
    if (kind === Kind.Push) s.push(value as T);
    else {
      const v = s.pop();
      if (v !== undefined) popped.push(v);
    }
  }
  return popped;
}
