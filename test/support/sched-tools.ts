import type { CallContext, ContractTool, JsonObject } from '../../src/contract/index.js';

/**
 * Tools for the server-scheduling tests, each recording when it runs, as positions on one counter
 * of the serving process (so order, never time, is compared):
 *
 * - `free` (no claims), `res_a` and `res_a_too` (resource `shell:a`), `res_b` (`shell:b`),
 *   `barrier` (a barrier, listed as sequential too) and `seq` (sequential) take `{id, ms?}`:
 *   they record `start <id>`, report progress `started`, wait `ms` milliseconds (default 15) or
 *   until their signal aborts (then they record `abort <id>` and throw `aborted <id>`), record
 *   `end <id>` and answer `{"id", "start", "end"}` as JSON text.
 * - `res_a_limited` is `res_a` with a 300 ms time limit.
 * - `meet`, `meet_a` (`shell:a`) and `meet_b` (`shell:b`) take `{group, count}` and answer once
 *   `count` calls of the group run at the same time: they can only succeed when those calls
 *   really overlap (after 10 s they fail with `meet <group>: only <n> of <count> arrived`).
 * - `gate_a` (`shell:a`) takes `{id, gate}`: it records `start <id>`, reports progress `started`
 *   and waits until `open {gate}` is called (which has no claims), then records `end <id>`; after
 *   10 s it fails with `gate <gate> never opened`. It ignores its signal (for stateless HTTP,
 *   where a cancellation cannot reach the call). `gate_a_limited` is `gate_a` with a 200 ms
 *   time limit: it is answered with a timeout and goes on running until its gate opens.
 * - `history` answers every `start`, `end` and `abort` record so far, as a JSON array.
 */
export function schedTools(): ContractTool[] {
  let clock = 0;
  const history: string[] = [];
  const groups = new Map<string, { present: number; arrived: (() => void)[] }>();
  const gates = new Map<string, Promise<void> & { open?: () => void }>();
  const gateOf = (name: string): Promise<void> & { open?: () => void } => {
    let gate = gates.get(name);
    if (gate === undefined) {
      let open!: () => void;
      gate = Object.assign(new Promise<void>((resolve) => (open = resolve)), {});
      gate.open = open;
      gates.set(name, gate);
    }
    return gate;
  };

  const holder = (name: string, claims: Partial<ContractTool>): ContractTool => ({
    name,
    description: `holds ${name} for a while`,
    parameters: {
      type: 'object',
      properties: { id: { type: 'string' }, ms: { type: 'integer', minimum: 0, maximum: 60_000 } },
      required: ['id'],
      additionalProperties: false,
    },
    ...claims,
    async execute(args: unknown, ctx: CallContext) {
      const { id, ms = 15 } = args as { id: string; ms?: number };
      const start = ++clock;
      history.push(`start ${id}`);
      ctx.progress('started');
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          clearTimeout(timer);
          history.push(`abort ${id}`);
          reject(new Error(`aborted ${id}`));
        };
        const timer = setTimeout(() => {
          ctx.signal.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        if (ctx.signal.aborted) onAbort();
        else ctx.signal.addEventListener('abort', onAbort, { once: true });
      });
      const end = ++clock;
      history.push(`end ${id}`);
      return JSON.stringify({ id, start, end });
    },
  });

  const gated = (name: string, claims: Partial<ContractTool>): ContractTool => ({
    name,
    description: `holds shell:a until its gate opens (${name})`,
    resource: 'shell:a',
    parameters: {
      type: 'object',
      properties: { id: { type: 'string' }, gate: { type: 'string' } },
      required: ['id', 'gate'],
      additionalProperties: false,
    },
    ...claims,
    async execute(args: unknown, ctx: CallContext) {
      const { id, gate } = args as { id: string; gate: string };
      const start = ++clock;
      history.push(`start ${id}`);
      ctx.progress('started');
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<never>(
        (_resolve, reject) => (timer = setTimeout(() => reject(new Error(`gate ${gate} never opened`)), 10_000)),
      );
      await Promise.race([gateOf(gate), limit]).finally(() => clearTimeout(timer));
      const end = ++clock;
      history.push(`end ${id}`);
      return JSON.stringify({ id, start, end });
    },
  });

  const meeter = (name: string, claims: Partial<ContractTool>): ContractTool => ({
    name,
    description: `meets the other calls of a group (${name})`,
    parameters: {
      type: 'object',
      properties: { group: { type: 'string' }, count: { type: 'integer', minimum: 1, maximum: 10 } },
      required: ['group', 'count'],
      additionalProperties: false,
    },
    ...claims,
    async execute(args: unknown) {
      const { group, count } = args as { group: string; count: number };
      const start = ++clock;
      let entry = groups.get(group);
      if (entry === undefined) {
        entry = { present: 0, arrived: [] };
        groups.set(group, entry);
      }
      entry.present += 1;
      const met = entry;
      if (met.present >= count) for (const wake of met.arrived.splice(0)) wake();
      else {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`meet ${group}: only ${met.present} of ${count} arrived`)),
            10_000,
          );
          met.arrived.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return JSON.stringify({ id: group, start, end: ++clock });
    },
  });

  return [
    holder('free', {}),
    holder('res_a', { resource: 'shell:a' }),
    holder('res_a_too', { resource: 'shell:a' }),
    holder('res_b', { resource: 'shell:b' }),
    holder('barrier', { barrier: true, sequential: true }),
    holder('seq', { sequential: true }),
    holder('res_a_limited', { resource: 'shell:a', timeoutMs: 300 }),
    meeter('meet', {}),
    meeter('meet_a', { resource: 'shell:a' }),
    meeter('meet_b', { resource: 'shell:b' }),
    gated('gate_a', {}),
    gated('gate_a_limited', { timeoutMs: 200 }),
    {
      name: 'open',
      description: 'opens a gate',
      parameters: {
        type: 'object',
        properties: { gate: { type: 'string' } },
        required: ['gate'],
        additionalProperties: false,
      },
      async execute(args: unknown) {
        gateOf((args as { gate: string }).gate).open!();
        return 'opened';
      },
    },
    {
      name: 'history',
      description: 'what the other tools recorded',
      execute: async () => JSON.stringify(history as unknown as JsonObject),
    },
  ];
}
