import type { CallContext, ContractTool } from '../../src/contract/index.js';

/**
 * Hand-built contract tools for the `serveStdio`/`serveHttp` tests: `where` answers
 * `<transport> <session id>` from its context; `wait` reports `wait started` to `probe`, then
 * resolves `wait aborted` once its signal aborts (reporting `wait aborted` too).
 */
export function serveTools(probe: (event: string) => void): ContractTool[] {
  return [
    {
      name: 'where',
      description: 'Tells which transport and session the call arrived on',
      execute: async (_args: unknown, ctx: CallContext) =>
        `${ctx.session?.transport ?? 'none'} ${JSON.stringify(ctx.session?.id ?? null)}`,
    },
    {
      name: 'wait',
      description: 'Waits until the call is aborted',
      execute: (_args: unknown, ctx: CallContext) =>
        new Promise((resolve) => {
          probe('wait started');
          ctx.signal.addEventListener(
            'abort',
            () => {
              probe('wait aborted');
              resolve('wait aborted');
            },
            { once: true },
          );
        }),
    },
  ];
}
