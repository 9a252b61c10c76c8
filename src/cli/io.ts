/**
 * Where a CLI command writes and what it resolves paths against. `main.ts` binds it to the
 * process; tests bind it to strings. Commands never write to `process.stdout` directly, so
 * `serve` over stdio keeps stdout for MCP messages alone.
 */
export interface CliIo {
  /** Writes text to standard output as it is (commands add their own newlines). */
  out(text: string): void;
  /** Writes text to standard error as it is. */
  err(text: string): void;
  /** The directory module paths are resolved against. */
  readonly cwd: string;
  /**
   * Resolves when the user asks the process to stop (Ctrl-C, SIGTERM). `serve --http` waits on
   * it; tests resolve it themselves.
   */
  stopRequested(): Promise<void>;
  /**
   * Reads one line the user typed on standard input, without its line break; `undefined` at the
   * end of input. `call --ask` answers questions with it; without it nobody can be asked.
   */
  readonly readLine?: () => Promise<string | undefined>;
}
