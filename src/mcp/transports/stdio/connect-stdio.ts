import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import { raceTimeout } from '../../../util/timeout.js';
import type { ServerFactory } from '../server-factory.js';
import { serveByEra, type StdioServing } from './era-gate.js';
import { HardenedStdioTransport } from './stdio-transport.js';
import { guardStdout } from './stdout-guard.js';
import { invalidOption } from '../../../util/options.js';

/** Default longest stdin line, in bytes: the same 4 MiB the HTTP transport allows per body. */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
/** Default time a graceful shutdown waits for in-flight calls before aborting them. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 5000;

/** Options of `connectStdio` and `serveStdio`. Every member is optional. */
export interface StdioOptions {
  /** Where requests come from. Default `process.stdin`. */
  readonly stdin?: Readable;
  /** Where protocol messages go. Default `process.stdout`. */
  readonly stdout?: Writable;
  /** The longest request line, in bytes. A longer line is answered and closes the server. Default 4 MiB. */
  readonly maxLineBytes?: number;
  /**
   * The largest message written, in bytes (a positive integer or `Infinity`). Default
   * `DEFAULT_MAX_MESSAGE_BYTES` (8 MiB, under the 10 MiB the SDK's stdio reader accepts). A
   * response over it (or one that cannot be serialised) is replaced by an `isError` result saying
   * why (see `serialiseOutgoing`).
   */
  readonly maxMessageBytes?: number;
  /** How long a graceful shutdown (signal or `close()`) waits for in-flight calls. Default 5000 ms. */
  readonly shutdownTimeoutMs?: number;
  /**
   * Whether SIGINT and SIGTERM start a graceful shutdown (a second signal closes at once).
   * Default: `true` when serving the process's own stdin and stdout, else `false`.
   */
  readonly handleSignals?: boolean;
  /**
   * Whether the process exits (with `process.exitCode`, normally 0) once the server closed
   * because of stdin EOF, a broken stdout, an oversize line or a signal. Never after `close()`.
   * Default: `true` when serving the process's own stdin and stdout, else `false`.
   */
  readonly exitProcess?: boolean;
  /**
   * Whether other writes to `process.stdout` (`console.log`, libraries) go to stderr while
   * serving, so they cannot corrupt the protocol stream. Default: `true` when `stdout` is
   * `process.stdout`. Tools should log through `ctx.log` (to the client) or stderr anyway.
   */
  readonly guardStdout?: boolean;
  /** Receives one-line diagnostics (signals, EPIPE, oversize lines). Default: stderr, prefixed `toolwright: `. */
  readonly log?: (message: string) => void;
}

/** A running stdio server. */
export interface StdioHandle {
  /**
   * Shuts down gracefully: refuses new requests, waits up to `shutdownTimeoutMs` for in-flight
   * calls, then closes the server (aborting what is left). Resolves once closed; never exits the
   * process. Calling it again returns the same promise.
   */
  close(): Promise<void>;
  /** Resolves once the server closed, for whatever reason (EOF, EPIPE, oversize line, signal, `close()`). */
  readonly closed: Promise<void>;
}

/**
 * Serves MCP over newline-delimited JSON-RPC on stdin/stdout with `HardenedStdioTransport`, and
 * resolves once it is listening. The client's first message picks the protocol era (see
 * `serveByEra`): 2025-era traffic gets one server from `factory` connected straight to the
 * transport; a 2026-07-28 request (carrying the `_meta` envelope) goes through the SDK's
 * `serveStdio`, which pins that era. stdout carries protocol messages only;
 * diagnostics go to `log` (stderr). stdin EOF, a broken stdout (EPIPE) or an oversize line close
 * the server at once, which aborts the signals of in-flight calls; with `exitProcess` the process
 * then exits. SIGINT/SIGTERM (with `handleSignals`) drain in-flight calls for up to
 * `shutdownTimeoutMs`, close, and exit.
 */
export async function connectStdio(factory: ServerFactory, options: StdioOptions = {}): Promise<StdioHandle> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const ownStdio = stdin === process.stdin && stdout === process.stdout;
  const handleSignals = options.handleSignals ?? ownStdio;
  const exitProcess = options.exitProcess ?? ownStdio;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  if (!Number.isFinite(shutdownTimeoutMs) || shutdownTimeoutMs < 0) {
    throw invalidOption('serveStdio', 'shutdownTimeoutMs', 'a non-negative number of milliseconds', shutdownTimeoutMs);
  }
  const log = options.log ?? ((message: string) => void process.stderr.write(`toolwright: ${message}\n`));

  const transport = new HardenedStdioTransport({
    stdin,
    stdout,
    maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    ...(options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes }),
    log,
    onClosed: () => {
      if (transport.closeReason !== 'closed') exitWanted = true;
      // Let the server's own close handling (which aborts in-flight signals) run first.
      setImmediate(finish);
    },
  });

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let finished = false;
  let exitWanted = false;
  let removeGuard: () => void = () => undefined;
  let shutdown: Promise<void> | undefined;

  const onSignal = (signal: NodeJS.Signals): void => {
    exitWanted = true;
    if (shutdown !== undefined) {
      log(`${signal} received again; closing now`);
      void served?.close();
      return;
    }
    void gracefulClose(signal);
  };

  const finish = (): void => {
    if (finished) return;
    finished = true;
    if (handleSignals) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    removeGuard();
    resolveClosed();
    if (exitProcess && exitWanted) exitSoon(stdout);
  };

  const gracefulClose = (trigger: string): Promise<void> => {
    shutdown ??= (async () => {
      transport.beginDrain();
      const pending = transport.inFlightCount;
      if (pending > 0) {
        log(`${trigger}: draining ${pending} in-flight call(s) for up to ${shutdownTimeoutMs} ms`);
        await raceTimeout(transport.whenIdle(), shutdownTimeoutMs, () => undefined);
        const left = transport.inFlightCount;
        if (left > 0) log(`${trigger}: shutdown deadline passed; aborting ${left} call(s)`);
      } else if (trigger !== 'close()') {
        log(`${trigger}: closing`);
      }
      await served?.close();
      await closed;
    })();
    return shutdown;
  };

  let served: StdioServing | undefined;
  served = await serveByEra(factory, transport);
  // A client that dies closes stderr too: a diagnostic written to it must not crash the process.
  if (ownStdio && process.stderr.listenerCount('error') === 0) process.stderr.on('error', () => undefined);
  if (options.guardStdout ?? stdout === process.stdout) removeGuard = guardStdout(stdout, process.stderr);
  if (handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  return { close: () => gracefulClose('close()'), closed };
}

/** Exits once stdout has flushed what it holds (bounded, so a stuck pipe cannot keep us alive). */
function exitSoon(stdout: Writable): void {
  if (stdout.writableLength === 0) {
    setImmediate(() => process.exit());
    return;
  }
  const exit = (): void => process.exit();
  stdout.once('drain', exit);
  setTimeout(exit, 1000).unref();
}
