import type { ContractTool } from '../../src/contract/index.js';

/**
 * Tools for the task tests. `job` (optional, polls every 10 ms) reports progress, then waits for
 * its gate (`release(label)`), or `ms` milliseconds when given, and answers `finished <label>`;
 * its signal's abort is recorded in `aborted`. `deploy` (required) answers `deployed` after `ms`.
 * `failing` (optional) throws; `held` (optional, 100 ms time limit, on the resource `db:main`)
 * never ends by itself; `brief` (optional, 50 ms TTL) waits for its gate; `ask` (optional) asks
 * the user with a form and answers with the action; `greet` is no task tool.
 */
export function taskTools(): {
  readonly tools: ContractTool[];
  release(label: string): void;
  readonly aborted: string[];
} {
  const gates = new Map<string, () => void>();
  const aborted: string[] = [];
  const wait = (label: string, ms: unknown, signal: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = typeof ms === 'number' ? setTimeout(resolve, ms) : undefined;
      gates.set(label, resolve);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          aborted.push(label);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  const argsOf = (args: unknown) => args as { label?: string; ms?: number };
  const tools: ContractTool[] = [
    {
      name: 'job',
      description: 'A slow job',
      task: { support: 'optional', pollIntervalMs: 10 },
      execute: async (args, ctx) => {
        const { label = 'job', ms } = argsOf(args);
        ctx.progress?.({ progress: 1, total: 2, message: `started ${label}` });
        await wait(label, ms, ctx.signal);
        return `finished ${label}`;
      },
    },
    {
      name: 'deploy',
      description: 'Deploys',
      task: { support: 'required', ttlMs: 60_000, pollIntervalMs: 10 },
      execute: async (args, ctx) => {
        await wait('deploy', argsOf(args).ms ?? 0, ctx.signal);
        return 'deployed';
      },
    },
    {
      name: 'failing',
      description: 'Always fails',
      task: { support: 'optional', pollIntervalMs: 10 },
      execute: async () => {
        throw new Error('the build broke');
      },
    },
    {
      name: 'held',
      description: 'Holds a resource until its time limit',
      task: { support: 'optional', pollIntervalMs: 10 },
      timeoutMs: 100,
      resource: 'db:main',
      execute: async (_args, ctx) => {
        await wait('held', undefined, ctx.signal);
        return 'never';
      },
    },
    {
      name: 'brief',
      description: 'Outlives its TTL',
      task: { support: 'optional', ttlMs: 50, pollIntervalMs: 10 },
      execute: async (_args, ctx) => {
        await wait('brief', undefined, ctx.signal);
        return 'never';
      },
    },
    {
      name: 'ask',
      description: 'Asks the user, then answers',
      task: { support: 'optional', pollIntervalMs: 10 },
      execute: async (_args, ctx) => `the user said ${(await ctx.elicit({ message: 'Go on?' })).action}`,
    },
    { name: 'greet', description: 'Says hello', execute: async () => 'hello' },
  ];
  return { tools, release: (label) => gates.get(label)?.(), aborted };
}
