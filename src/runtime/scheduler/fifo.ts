/**
 * A first-in first-out list with O(1) `push`, `first` and `shift` (an array and a read index,
 * compacted once half of it is spent) and an O(n) `remove` for the rare withdrawal.
 */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  first(): T | undefined {
    return this.items[this.head];
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.head += 1;
    if (this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Removes `item` and returns where it was (0 = first), or -1 when it is not in the list. */
  remove(item: T): number {
    const at = this.items.indexOf(item, this.head);
    if (at < 0) return -1;
    this.items.splice(at, 1);
    return at - this.head;
  }
}
