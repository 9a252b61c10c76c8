import { IsInt, Max, Min } from 'class-validator';
import { Args, compile, ReadOnly, Tool, type CallContext, type ContractTool } from '../../src/index.js';

/** Who answered a call: the process id and the node id of the toolwright process. */
export interface Answerer {
  readonly pid: number;
  readonly node: string;
}

/** What the tools of one process share: who it is, and how many `slow` calls it runs now. */
export interface Process {
  readonly me: Answerer;
  slowCalls: number;
}

/**
 * `whoami`: says which process answered (`{"pid":...,"node":...,"slowCalls":...}`), so a client
 * can see where the balancer sent a call, and how many `slow` calls that process runs now.
 */
@Tool({ name: 'whoami', args: undefined, description: 'Say which toolwright process answered this call (its pid and node id) and how many slow calls it runs' })
@ReadOnly()
export class WhoAmI {
  constructor(private readonly process: Process) {}
  execute(): string {
    return JSON.stringify({ ...this.process.me, slowCalls: this.process.slowCalls });
  }
}

class SlowArgs {
  @IsInt() @Min(0) @Max(600_000)
  ms!: number;
}

/**
 * `slow`: waits `ms` milliseconds (or until the call is cancelled), then says which process
 * answered. The cluster tests kill a process while it runs.
 */
@Tool({ description: 'Wait the given milliseconds, then say which process answered' })
@ReadOnly()
export class Slow {
  constructor(private readonly process: Process) {}
  async execute(@Args(SlowArgs) args: SlowArgs, ctx: CallContext): Promise<string> {
    this.process.slowCalls += 1;
    try {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, args.ms);
        ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    } finally {
      this.process.slowCalls -= 1;
    }
    return JSON.stringify(this.process.me);
  }
}

/**
 * `confirm`: asks the client "Proceed?" (an elicitation: a 2026-07-28-era call is parked until
 * the client retries with the answer), then says what the client answered and which process ran
 * the call from its start to its end.
 */
@Tool({ args: undefined, description: 'Ask the client to confirm, then say the answer and which process ran the call' })
@ReadOnly()
export class Confirm {
  constructor(private readonly process: Process) {}
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const startedOn = JSON.stringify(this.process.me);
    const answer = await ctx.elicit({ message: 'Proceed?', schema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return `${answer.action} ${JSON.stringify(answer.content ?? null)}; asked and finished by ${startedOn}`;
  }
}

/** The cluster sample's tools (`whoami`, `slow`, `confirm`), each told which process it runs in. */
export function clusterTools(me: Answerer): readonly ContractTool[] {
  const process: Process = { me, slowCalls: 0 };
  return compile([WhoAmI, Slow, Confirm], { resolve: (cls) => new (cls as new (process: Process) => object)(process) });
}
