import type { ContractTool } from '../../src/contract/index.js';
import { untilAborted } from './text.js';

/** Tools with every claim the facts method carries, as a decorated set would have them. */
export function decorated(): ContractTool[] {
  return [
    {
      name: 'bash',
      title: 'Shell',
      description: 'Runs a command',
      parameters: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { command: { type: 'string' } },
        required: ['command'],
        additionalProperties: false,
      },
      annotations: { title: 'Shell', destructive: true, openWorld: true },
      flow: { sends: true },
      replay: 'safe',
      resource: 'shell:session',
      facts: (args) => ({
        calls: [
          { tool: 'read', args: { path: '.env' }, text: 'read .env' },
          { tool: '', args },
        ],
        rewrite: { command: String(args.command), stamp: 'abc' },
      }),
      execute: async () => 'ran',
    },
    { name: 'itself', description: 'Claims itself', facts: () => ({ calls: null }), execute: async () => 'x' },
    {
      name: 'nothing',
      description: 'Claims nothing statable',
      facts: () => ({ calls: [] }),
      replay: 'keyed',
      execute: async () => 'x',
    },
    {
      name: 'failing',
      description: 'Cannot say',
      facts: () => {
        throw new Error('cannot read the command');
      },
      execute: async () => 'x',
    },
    { name: 'plain', description: 'No claims', annotations: { readOnly: true }, execute: async () => 'plain' },
  ];
}

/** One facts batch covering every answer form, with an unknown tool last. */
export const FACTS_CALLS = [
  { name: 'bash', arguments: { command: 'cat .env > out/x' } },
  { name: 'itself' },
  { name: 'nothing', arguments: {} },
  { name: 'failing', arguments: {} },
  { name: 'plain', arguments: {} },
  { name: 'x', arguments: {} },
];

/** The facts method's answer to `FACTS_CALLS` from a server of `decorated()` tools. */
export const FACTS_ANSWERS = {
  results: [
    {
      facts: {
        calls: [
          { tool: 'read', args: { path: '.env' }, text: 'read .env' },
          { tool: '', args: { command: 'cat .env > out/x' } },
        ],
        rewrite: { command: 'cat .env > out/x', stamp: 'abc' },
      },
      replay: 'safe',
    },
    { facts: { calls: null }, replay: 'unknown' },
    { facts: { calls: [] }, replay: 'unknown' },
    { error: 'cannot read the command', replay: 'unknown' },
    { replay: 'unknown' },
    { error: 'unknown tool "x"', replay: 'unknown' },
  ],
};

/** `slow`: reports progress (1 of 2, "half"), then waits until its call is cancelled; `onAbort` is told when it was. */
export function slowTool(onAbort: () => void = () => {}): ContractTool {
  return {
    name: 'slow',
    description: 'Reports progress, then waits until cancelled',
    annotations: { readOnly: true },
    execute: async (_args, ctx) => {
      ctx.progress({ progress: 1, total: 2, message: 'half' });
      await untilAborted(ctx.signal);
      onAbort();
      return 'never seen';
    },
  };
}
