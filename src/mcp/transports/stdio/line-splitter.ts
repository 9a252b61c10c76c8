import { isPositiveInteger } from '../../../util/limits.js';
import { invalidOption } from '../../../util/options.js';

/** What a `LineSplitter` reports for each chunk it is fed. */
export type LineEvent =
  { readonly kind: 'line'; readonly text: string } | { readonly kind: 'oversize'; readonly bytes: number };

/**
 * Splits a byte stream into `\n`-terminated lines (a trailing `\r` is removed), holding at most
 * `maxLineBytes` bytes of an unfinished line. It never buffers more than that: a line longer than
 * the limit (counted without its line break) yields one `oversize` event, after which the
 * splitter is spent and ignores everything fed to it. Invalid UTF-8 decodes to U+FFFD.
 * Work is linear in the input: each byte is scanned once and each line is joined once.
 */
export class LineSplitter {
  private readonly pending: Buffer[] = [];
  private pendingBytes = 0;
  private spent = false;

  constructor(private readonly maxLineBytes: number) {
    if (!isPositiveInteger(maxLineBytes)) {
      throw invalidOption('serveStdio', 'maxLineBytes', 'a positive integer number of bytes', maxLineBytes);
    }
  }

  /** Feeds one chunk and returns the complete lines it finished, in order. */
  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    if (this.spent) return events;
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) break;
      const bytes = this.pendingBytes + (newline - start);
      if (bytes > this.maxLineBytes) return this.overflow(events, bytes);
      const piece = chunk.subarray(start, newline);
      const line = this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece], bytes);
      this.pending.length = 0;
      this.pendingBytes = 0;
      // A trailing \r (CRLF framing) is cut from the bytes, before decoding.
      const end = line.length > 0 && line[line.length - 1] === 0x0d ? line.length - 1 : line.length;
      events.push({ kind: 'line', text: line.toString('utf8', 0, end) });
      start = newline + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.pendingBytes += rest.length;
      if (this.pendingBytes > this.maxLineBytes) return this.overflow(events, this.pendingBytes);
      this.pending.push(rest);
    }
    return events;
  }

  private overflow(events: LineEvent[], bytes: number): LineEvent[] {
    this.spent = true;
    this.pending.length = 0;
    this.pendingBytes = 0;
    events.push({ kind: 'oversize', bytes });
    return events;
  }
}
