#!/usr/bin/env node
// The `toolwright` command (package.json `bin`). reflect-metadata is loaded first, before any
// module with decorated classes is imported; see run.ts for the commands and exit codes.
import 'reflect-metadata';
import { createInterface, type Interface } from 'node:readline';
import { keepServingOnFloatingRejections } from '../mcp/internal.js';
import { runCli } from './run.js';
import type { CliIo } from './io.js';

// Standard input is read only when a command asks (`call --ask`): `serve` keeps it for MCP.
interface Lines {
  readonly reader: Interface;
  readonly queue: string[];
  ended: boolean;
  wake?: (() => void) | undefined;
}
let lines: Lines | undefined;
function readLine(): Promise<string | undefined> {
  if (lines === undefined) {
    const reader = createInterface({ input: process.stdin, terminal: false });
    const state: Lines = { reader, queue: [], ended: false };
    reader.on('line', (line) => {
      state.queue.push(line);
      state.wake?.();
    });
    reader.on('close', () => {
      state.ended = true;
      state.wake?.();
    });
    lines = state;
  }
  const state = lines;
  return new Promise((resolve) => {
    const take = (): void => {
      if (state.queue.length > 0) return resolve(state.queue.shift());
      if (state.ended) return resolve(undefined);
      state.wake = () => {
        state.wake = undefined;
        take();
      };
    };
    take();
  });
}

const io: CliIo = {
  readLine,
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  cwd: process.cwd(),
  stopRequested: () =>
    new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
};

// The CLI owns its process: a rejection a loaded tool leaves unhandled is logged, never fatal.
keepServingOnFloatingRejections();
void runCli(process.argv.slice(2), io).then((code) => {
  process.exitCode = code;
  // A reader left open would keep the process alive after the command.
  lines?.reader.close();
});
