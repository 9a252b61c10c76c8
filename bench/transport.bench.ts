/**
 * What stdio framing costs: toolwright's `LineSplitter` + `parseLine` against the SDK's
 * `ReadBuffer` (both split lines, `JSON.parse` and validate each message with the SDK's zod
 * schema), fed the same bytes in 64 KiB chunks, measured side by side in interleaved rounds.
 * Cases: 10,000 small requests (~110 bytes each), and one 4 MiB `tools/call` line (the SDK's
 * buffer concatenates on every chunk, so its cost grows with the square of a long line's size).
 * Prints the median time per case and the ratio SDK / toolwright (above 1.0x: toolwright faster).
 *
 *   node dist/bench/transport.bench.js        (or `npm run bench`, which runs every bench)
 */
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { LineSplitter } from '../src/mcp/transports/stdio/line-splitter.js';
import { parseLine } from '../src/mcp/transports/stdio/parse-line.js';

const CHUNK = 64 * 1024;
const LIMIT = 16 * 1024 * 1024;
const ROUNDS = 21;

function chunksOf(text: string): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(bytes.subarray(at, at + CHUNK));
  return chunks;
}

function toolwright(chunks: readonly Buffer[]): number {
  const splitter = new LineSplitter(LIMIT);
  let messages = 0;
  for (const chunk of chunks) {
    for (const event of splitter.push(chunk)) {
      if (event.kind === 'line' && parseLine(event.text).kind === 'message') messages++;
    }
  }
  return messages;
}

function sdk(chunks: readonly Buffer[]): number {
  const buffer = new ReadBuffer({ maxBufferSize: LIMIT });
  let messages = 0;
  for (const chunk of chunks) {
    buffer.append(chunk);
    while (buffer.readMessage() !== null) messages++;
  }
  return messages;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function measure(label: string, chunks: readonly Buffer[], expected: number): void {
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [run, times] of [
      [toolwright, ours],
      [sdk, theirs],
    ] as const) {
      const start = process.hrtime.bigint();
      const count = run(chunks);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (count !== expected) throw new Error(`${label}: expected ${expected} messages, got ${count}`);
    }
  }
  const a = median(ours);
  const b = median(theirs);
  console.log(
    `  ${label.padEnd(34)} toolwright ${a.toFixed(2).padStart(8)} ms   sdk ReadBuffer ${b.toFixed(2).padStart(8)} ms   sdk/toolwright ${(b / a).toFixed(2)}x`,
  );
}

export async function run(): Promise<void> {
  console.log(`stdio framing (split + JSON.parse + schema check), ${CHUNK / 1024} KiB chunks, median of ${ROUNDS}`);
  const small = Array.from(
    { length: 10_000 },
    (_, i) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: `message ${i}` } },
      }) + '\n',
  ).join('');
  measure('10,000 small requests', chunksOf(small), 10_000);
  const big =
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'x'.repeat(4 * 1024 * 1024) } },
    }) + '\n';
  measure('one 4 MiB line', chunksOf(big), 1);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
