import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/server';
import { JsonRpcCode, jsonRpcError, type JsonRpcErrorBody } from '../jsonrpc-error.js';
import { messageKind } from '../jsonrpc-shape.js';
import { maxMessageBytesOf, serialiseOutgoing } from '../outgoing.js';
import { DirectDispatch } from '../direct-dispatch.js';
import { LineSplitter } from './line-splitter.js';
import { parseLine } from './parse-line.js';

/** What a write the stream took at once resolves to: one settled promise, shared. */
const WRITTEN: Promise<void> = Promise.resolve();

/** Why a `HardenedStdioTransport` closed. */
export type StdioCloseReason = 'eof' | 'stdin-error' | 'stdout-broken' | 'oversize' | 'closed';

/** Options of `HardenedStdioTransport`. */
export interface HardenedStdioTransportOptions {
  /** Where requests come from (newline-delimited JSON-RPC). */
  readonly stdin: Readable;
  /** Where protocol messages go, and nothing else. */
  readonly stdout: Writable;
  /** The longest line accepted, in bytes without the line break. */
  readonly maxLineBytes: number;
  /** Receives one-line diagnostics about abnormal ends (never protocol traffic). */
  readonly log: (message: string) => void;
  /** The largest message written, in bytes (see `serialiseOutgoing`); default `DEFAULT_MAX_MESSAGE_BYTES`. */
  readonly maxMessageBytes?: number;
  /**
   * Called once when the transport closes, after `onclose` (which whoever connects the transport
   * owns and replaces), with `closeReason` already set.
   */
  readonly onClosed?: () => void;
}

/** The message a request gets while the transport is draining for shutdown. */
export const SHUTTING_DOWN_MESSAGE = 'Server is shutting down';

/**
 * An MCP stdio server transport that survives what kills the SDK's `StdioServerTransport`:
 *
 * - Framing: newline-delimited JSON-RPC; a line longer than `maxLineBytes` is answered
 *   `-32600 Invalid Request: line exceeds N bytes` (id `null`) and the transport closes
 *   (reason `oversize`) instead of buffering without bound.
 * - Bad lines are answered, not dropped: see `parseLine` (`-32700 Parse error`, `-32600`).
 * - stdin EOF (or a stdin error) closes the transport, so the connected server aborts the
 *   signals of its in-flight calls at once instead of finishing them for nobody.
 * - A stdout write error (EPIPE: the client closed its end) never crashes the process: the
 *   transport closes (reason `stdout-broken`) and later sends reject with `stdio output is closed`.
 * - Every request is answered once: a response that cannot be serialised or is over
 *   `maxMessageBytes` is replaced by one that says why (see `serialiseOutgoing`).
 * - Writes honour back-pressure (a send resolves once the stream accepted or drained the line).
 *   Lines sent while other requests are in flight are written together, in order, in one write
 *   (see `writeLine`). The transport itself holds nothing past the turn of the event loop a line
 *   was sent in; what the stream buffers past its high-water mark is held by the sends, which
 *   resolve only once it drained (`process.stdout` on a pipe writes synchronously on Linux and macOS).
 * - It counts in-flight requests (received, neither answered nor cancelled), so a shutdown can
 *   drain them: after `beginDrain()` new requests are answered `-32000 Server is shutting down`,
 *   while notifications (cancellations) and responses (answers to elicitation or sampling) still
 *   flow; `whenIdle()` resolves when the count reaches zero.
 *
 * It writes to stdout through the `write` method it found on the stream when it was built, so a
 * guard installed later that reroutes other writers (`console.log`) does not affect it.
 * `close()` never destroys the streams; it stops reading (pauses stdin when nothing else reads it).
 */
export class HardenedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Why the transport closed, once it has. */
  closeReason: StdioCloseReason | undefined;

  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly rawWrite: (chunk: string) => boolean;
  private readonly splitter: LineSplitter;
  private readonly maxLineBytes: number;
  private readonly log: (message: string) => void;
  private readonly maxMessageBytes: number;
  private readonly onClosed: (() => void) | undefined;
  /** Requests in flight by id (a `Map` keeps `1` and `"1"` apart), with how many share the id. */
  private readonly inFlight = new Map<RequestId, number>();
  private readonly idleWaiters = new Set<() => void>();
  private readonly drainWaiters = new Set<() => void>();
  private started = false;
  private closed = false;
  private draining = false;
  private outputBroken = false;
  private held: JSONRPCMessage[] | undefined;
  /** Where messages go without the SDK's classification (see `dispatchDirectlyTo`). */
  private readonly direct = new DirectDispatch();
  /** Lines kept to be written together (see `writeLine`), and the one promise their sends share. */
  private batch: KeptLines | undefined;

  constructor(options: HardenedStdioTransportOptions) {
    this.stdin = options.stdin;
    this.stdout = options.stdout;
    this.splitter = new LineSplitter(options.maxLineBytes);
    this.maxLineBytes = options.maxLineBytes;
    this.log = options.log;
    this.maxMessageBytes = maxMessageBytesOf(options.maxMessageBytes, 'serveStdio');
    this.onClosed = options.onClosed;
    const write = options.stdout.write as (chunk: string) => boolean;
    this.rawWrite = (chunk) => write.call(options.stdout, chunk);
  }

  /** How many received requests are neither answered nor cancelled. */
  get inFlightCount(): number {
    let count = 0;
    for (const n of this.inFlight.values()) count += n;
    return count;
  }

  /** Starts reading. Starting again is a no-op (the stdio era gate starts it before a server connects). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('close', this.onEnd);
    this.stdin.on('error', this.onStdinError);
    // Stays attached after close: a late EPIPE must never become an uncaught 'error' event.
    this.stdout.on('error', this.onStdoutError);
    this.stdin.resume();
  }

  /**
   * Writes one message as a line. A message that cannot be serialised or is over
   * `maxMessageBytes` is handled by `serialiseOutgoing`: a response is replaced (an `isError`
   * tool result or a `-32603` error saying why, logged), so the request is still answered once;
   * a request or notification is not written and the send rejects with the reason.
   */
  send(message: JSONRPCMessage): Promise<void> {
    try {
      const outgoing = serialiseOutgoing(message, this.maxMessageBytes);
      if (outgoing.kind === 'drop') {
        this.log(outgoing.why);
        return Promise.reject(new Error(outgoing.why));
      }
      if (messageKind(message) === 'response') {
        const id = (message as { id?: RequestId }).id;
        if (id !== undefined) this.untrack(id);
        if (outgoing.replaced !== undefined) this.log(`request ${JSON.stringify(id)}: ${outgoing.replaced}`);
      }
      return this.writeLine(outgoing.json);
    } catch (error) {
      // A throwing `log` rejects the send, as it would from an async function.
      return Promise.reject(error);
    }
  }

  /** `send`, bound: how answers made without the SDK's `_onrequest` go out (see `dispatchDirectlyTo`). */
  private readonly sendLine = (message: JSONRPCMessage): Promise<void> => this.send(message);

  async close(): Promise<void> {
    this.finish('closed');
  }

  /** Starts a shutdown drain: from now on new requests are refused with `Server is shutting down`. */
  beginDrain(): void {
    this.draining = true;
  }

  /** Resolves when no request is in flight (at once if none is), or when the transport closes. */
  whenIdle(): Promise<void> {
    if (this.closed || this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }

  private readonly onData = (chunk: Buffer | string): void => {
    if (this.closed) return;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (const event of this.splitter.push(bytes)) {
      if (this.closed) return;
      if (event.kind === 'oversize') {
        this.log(`stdin line exceeds ${this.maxLineBytes} bytes; closing`);
        void this.answer(
          jsonRpcError(JsonRpcCode.InvalidRequest, `Invalid Request: line exceeds ${this.maxLineBytes} bytes`),
        );
        this.finish('oversize');
        return;
      }
      this.onLine(event.text);
    }
  };

  private onLine(text: string): void {
    const parsed = parseLine(text);
    if (parsed.kind === 'blank') return;
    if (parsed.kind === 'invalid') {
      void this.answer(parsed.answer);
      return;
    }
    const message = parsed.message;
    const kind = messageKind(message);
    if (kind === 'request') {
      const request = message as JSONRPCRequest;
      if (this.draining) {
        void this.answer(jsonRpcError(JsonRpcCode.ServerError, SHUTTING_DOWN_MESSAGE, request.id));
        return;
      }
      this.track(request.id);
    } else if (kind === 'notification' && (message as { method: string }).method === 'notifications/cancelled') {
      const requestId = (message as { params?: { requestId?: unknown } }).params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.untrack(requestId);
    }
    if (this.held !== undefined) this.held.push(message);
    else this.deliver(message);
  }

  /**
   * Hands every message read from now on straight to `protocol`'s `_onrequest`,
   * `_onnotification` or `_onresponse` by its kind, instead of through the handler the SDK's
   * `Protocol.connect` installed as `onmessage` (see `DirectDispatch`): this transport has already
   * checked every message it delivers against the SDK's JSON-RPC schema (see `parseLine`). Call it
   * right after `protocol.connect(this)` with no `onmessage` set before the connect. Does nothing
   * when `protocol` lacks any of the three methods or `onmessage` is not set; and once `onmessage`
   * is replaced by someone else, messages go to the new handler again.
   */
  dispatchDirectlyTo(protocol: object): void {
    this.direct.bind(protocol, this.onmessage as ((message: JSONRPCMessage) => void) | undefined, this.sendLine);
  }

  /** Whether messages currently go straight to a protocol (see `dispatchDirectlyTo`). */
  get dispatchesDirectly(): boolean {
    return this.direct.active(this.onmessage);
  }

  private deliver(message: JSONRPCMessage): void {
    try {
      this.direct.deliver(message, undefined, this.onmessage);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Holds delivery: messages read from now on are kept, in order, until `release()`. */
  hold(): void {
    this.held ??= [];
  }

  /** Delivers the messages held since `hold()`, in order, and delivers as they come again. */
  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const message of held) {
      if (this.closed) return;
      this.deliver(message);
    }
  }

  private readonly onEnd = (): void => {
    this.finish('eof');
  };

  private readonly onStdinError = (error: Error): void => {
    if (this.closed) return;
    this.log(`stdin failed (${error.message}); closing`);
    this.finish('stdin-error');
  };

  private readonly onStdoutError = (error: Error): void => {
    if (this.outputBroken) return;
    this.outputBroken = true;
    this.releaseDrainWaiters();
    if (this.closed) return;
    const code = (error as NodeJS.ErrnoException).code;
    this.log(`stdout closed by the client (${code ?? error.message}); closing`);
    this.finish('stdout-broken');
  };

  private answer(body: JsonRpcErrorBody): Promise<void> {
    return this.writeLine(JSON.stringify(body)).catch(() => undefined);
  }

  /**
   * Writes one line. While other requests are still in flight (concurrent calls), the line is
   * kept and written together with the lines that follow it in the same turn of the event loop,
   * in order, in one write: when the last request in flight is answered, or when the turn ends
   * (or the transport closes), whichever comes first. So n answers finishing together cost one
   * system call instead of n, and a lone call's answer is written at once, as before. Each
   * line's promise settles with the write that carried it.
   */
  private writeLine(json: string): Promise<void> {
    if (this.outputBroken || (this.closed && this.closeReason !== 'oversize'))
      return Promise.reject(new Error('stdio output is closed'));
    if (this.batch === undefined && this.inFlight.size === 0) return this.writeNow(json + '\n');
    let batch = this.batch;
    if (batch === undefined) {
      batch = this.batch = keptLines();
      setImmediate(this.endTurn);
    }
    batch.text += json + '\n';
    if (this.inFlight.size === 0) this.flushBatch();
    return batch.written;
  }

  private readonly endTurn = (): void => {
    this.flushBatch();
  };

  /** Writes the lines kept in this turn, if any, in one write, and settles their shared promise with it. */
  private flushBatch(): void {
    const batch = this.batch;
    if (batch === undefined) return;
    this.batch = undefined;
    const written =
      this.outputBroken || (this.closed && this.closeReason !== 'oversize')
        ? Promise.reject(new Error('stdio output is closed'))
        : this.writeNow(batch.text);
    written.then(batch.resolve, batch.reject);
  }

  /**
   * Writes `text` now. Resolves at once when the stream took it (one promise shared by every such
   * write), else once the stream drained; rejects with `stdio output is closed` when the write throws.
   */
  private writeNow(text: string): Promise<void> {
    let accepted: boolean;
    try {
      accepted = this.rawWrite(text);
    } catch (error) {
      this.onStdoutError(error instanceof Error ? error : new Error(String(error)));
      return Promise.reject(new Error('stdio output is closed'));
    }
    if (accepted) return WRITTEN;
    return new Promise((resolve) => {
      const done = (): void => {
        this.drainWaiters.delete(done);
        this.stdout.off('drain', done);
        resolve();
      };
      this.drainWaiters.add(done);
      this.stdout.on('drain', done);
    });
  }

  private track(id: RequestId): void {
    this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
  }

  private untrack(id: RequestId): void {
    const count = this.inFlight.get(id);
    if (count === undefined) return;
    if (count > 1) this.inFlight.set(id, count - 1);
    else this.inFlight.delete(id);
    if (this.inFlight.size === 0 && this.idleWaiters.size > 0) this.releaseIdleWaiters();
  }

  private releaseIdleWaiters(): void {
    for (const resolve of [...this.idleWaiters]) resolve();
    this.idleWaiters.clear();
  }

  private releaseDrainWaiters(): void {
    for (const done of [...this.drainWaiters]) done();
  }

  private finish(reason: StdioCloseReason): void {
    if (this.closed) return;
    // Lines kept for the end of this turn were sent before the close: they are written first.
    this.flushBatch();
    this.closed = true;
    this.closeReason = reason;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    this.stdin.off('error', this.onStdinError);
    // Keep a listener so a late stdin error after close cannot crash the process.
    this.stdin.on('error', () => undefined);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.releaseIdleWaiters();
    try {
      this.onclose?.();
    } finally {
      this.onClosed?.();
    }
  }
}

/** Lines kept to be written together: their text, and the promise of the write that will carry them. */
interface KeptLines {
  text: string;
  readonly written: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

function keptLines(): KeptLines {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const written = new Promise<void>((settle, fail) => {
    resolve = settle;
    reject = fail;
  });
  return { text: '', written, resolve, reject };
}
