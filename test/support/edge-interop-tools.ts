import type { ContractTool } from '../../src/contract/index.js';
import { createPolicy, type PermissionPolicy } from '../../src/runtime/index.js';
import { untilAborted } from './text.js';

/**
 * The tool set of the interop matrix (edge-interop.test.ts): one tool per feature a client of
 * either era must reach. `slow` waits until its call is cancelled and counts the cancellation;
 * `aborts` reports that count. `write_file` sits behind a permission policy that asks the user
 * through `ctx.elicit` (the policy, and so "allow always", is shared by every connection of the
 * process). `progress` and `logs` called with `{ hold: true }` wait, after their notifications,
 * until the same tool is called with `{ release: true }` (which answers `released` and sends
 * nothing): so a client has read every notification before the result it comes with (an SDK client
 * drops a request's progress that it reads in the same chunk as the request's result).
 */
export function interopTools(): ContractTool[] {
  let aborted = 0;
  const holds = new Map<string, () => void>();
  const held = (tool: string, args: unknown): Promise<void> | undefined =>
    (args as { hold?: unknown } | undefined)?.hold === true
      ? new Promise((resolve) => holds.set(tool, resolve))
      : undefined;
  const released = (tool: string, args: unknown): boolean => {
    if ((args as { release?: unknown } | undefined)?.release !== true) return false;
    holds.get(tool)?.();
    holds.delete(tool);
    return true;
  };
  const plain: ContractTool[] = [
    {
      name: 'progress',
      description: 'Reports three steps',
      async execute(args, ctx) {
        if (released('progress', args)) return 'released';
        for (let step = 1; step <= 3; step++) ctx.progress({ progress: step, total: 3, message: `step ${step}` });
        await held('progress', args);
        return 'progressed';
      },
    },
    {
      name: 'logs',
      description: 'Logs at info and debug',
      async execute(args, ctx) {
        if (released('logs', args)) return 'released';
        ctx.log('info', 'one');
        ctx.log('debug', 'two');
        await held('logs', args);
        return 'logged';
      },
    },
    {
      name: 'form',
      description: 'Asks for a name with a form',
      async execute(_args, ctx) {
        const answer = await ctx.elicit({
          message: 'Your name?',
          schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        });
        return `form: ${answer.action} ${JSON.stringify(answer.content ?? null)}`;
      },
    },
    {
      name: 'url',
      description: 'Sends the user to a URL',
      async execute(_args, ctx) {
        const answer = await ctx.elicit({ message: 'Sign in', url: 'https://example.com/login' });
        return `url: ${answer.action}`;
      },
    },
    {
      name: 'sample',
      description: 'Asks the client model',
      async execute(_args, ctx) {
        const answer = await ctx.sample({
          messages: [{ role: 'user', content: { type: 'text', text: 'ping' } }],
          maxTokens: 5,
        });
        return `model ${answer.model} said ${(answer.content as { text: string }).text}`;
      },
    },
    {
      name: 'slow',
      description: 'Waits until cancelled',
      async execute(_args, ctx) {
        await untilAborted(ctx.signal);
        aborted += 1;
        return 'cancelled';
      },
    },
    { name: 'aborts', description: 'How many slow calls were cancelled', execute: async () => String(aborted) },
    {
      name: 'recorded',
      description: 'Leaves a record',
      execute: async () => ({
        content: [{ type: 'text', text: 'recorded' }],
        record: { ns: 'interop:test', data: { ok: true } },
      }),
    },
    {
      name: 'facts_tool',
      description: 'States its facts',
      replay: 'safe',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string' } },
        required: ['path'],
        additionalProperties: false,
      },
      facts: (args) => ({ calls: [{ tool: 'read', args: { path: String(args.path) } }] }),
      execute: async () => 'read',
    },
  ];
  const writer: ContractTool = {
    name: 'write_file',
    description: 'Writes a file after asking permission',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    },
    async execute(args, ctx) {
      const path = String((args as { path: string }).path);
      await ctx.requirePermission({ subject: path, capabilities: ['write'] });
      return `wrote ${path}`;
    },
  };
  return [...plain, writer];
}

/** The policy the interop hosts serve `interopTools()` under (no rules: `write_file` asks the user). */
export function interopPolicy(): PermissionPolicy {
  return createPolicy();
}
