/**
 * Writes `probe: <event>` on stderr: how a child-process fixture tells its test what happened
 * (`probe: ready` once serving), on a stream the protocol never uses.
 */
export function probe(event: string): void {
  process.stderr.write(`probe: ${event}\n`);
}
