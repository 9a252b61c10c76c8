/** Writes a one-line warning on stderr, prefixed `toolwright: ` (the default of every `log` option). */
export function warnOnStderr(message: string): void {
  process.stderr.write(`toolwright: ${message}\n`);
}
