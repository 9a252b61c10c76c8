#!/usr/bin/env node
// The `toolwright` command (package.json `bin`). reflect-metadata is loaded first, before any
// module with decorated classes is imported; see run.ts for the commands and exit codes.
import 'reflect-metadata';
import { keepServingOnFloatingRejections } from '../mcp/internal.js';
import { runCli } from './run.js';
import type { CliIo } from './io.js';

const io: CliIo = {
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
});
