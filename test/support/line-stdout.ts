import { Writable } from 'node:stream';

/** A stdout that hands each line written to whoever waits for the next one. */
export class LineStdout extends Writable {
  private pending = '';
  private readonly lines: string[] = [];
  private readonly waiters: Array<(line: string) => void> = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.pending += chunk.toString('utf8');
    for (let end = this.pending.indexOf('\n'); end >= 0; end = this.pending.indexOf('\n')) {
      const line = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 1);
      const waiter = this.waiters.shift();
      if (waiter !== undefined) waiter(line);
      else this.lines.push(line);
    }
    callback();
  }
  /** The next line written (bounded: fails after 5 s). */
  next(): Promise<string> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no line within 5 s')), 5000);
      this.waiters.push((written) => {
        clearTimeout(timer);
        resolve(written);
      });
    });
  }
  /** Lines written and not yet read. */
  get unread(): readonly string[] {
    return this.lines;
  }
}
