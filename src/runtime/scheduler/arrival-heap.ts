/** Something with an arrival number: earlier arrivals have smaller numbers. */
export interface Arrival {
  readonly seq: number;
}

/**
 * A binary min-heap of arrivals by `seq`: `peek` is the earliest. Push and pop take O(log n).
 * It never checks for duplicates; its user keeps each item in it at most once.
 */
export class ArrivalHeap<T extends Arrival> {
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    let at = items.length;
    items.push(item);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (items[parent]!.seq <= item.seq) break;
      items[at] = items[parent]!;
      at = parent;
    }
    items[at] = item;
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && items[right]!.seq < items[left]!.seq ? right : left;
      if (items[child]!.seq >= last.seq) break;
      items[at] = items[child]!;
      at = child;
    }
    items[at] = last;
    return top;
  }

  /** Empties the heap. */
  clear(): void {
    this.items.length = 0;
  }
}
