import { IsInt, Max, Min } from 'class-validator';
import { Args, compile, ReadOnly, Tool, type CallContext, type ContractTool } from '../../src/index.js';

/** Who answered a call: the process id and the node id of the toolwright process. */
export interface Answerer {
  readonly pid: number;
  readonly node: string;
}

/** `whoami`: says which process answered, so a client can see where the balancer sent a call. */
@Tool({ name: 'whoami', args: undefined, description: 'Say which toolwright process answered this call (its pid and node id)' })
@ReadOnly()
export class WhoAmI {
  constructor(private readonly me: Answerer) {}
  execute(): string {
    return JSON.stringify(this.me);
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
  constructor(private readonly me: Answerer) {}
  async execute(@Args(SlowArgs) args: SlowArgs, ctx: CallContext): Promise<string> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, args.ms);
      ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    return JSON.stringify(this.me);
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
  constructor(private readonly me: Answerer) {}
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const startedOn = JSON.stringify(this.me);
    const answer = await ctx.elicit({ message: 'Proceed?', schema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return `${answer.action} ${JSON.stringify(answer.content ?? null)}; asked and finished by ${startedOn}`;
  }
}

/** The cluster sample's tools (`whoami`, `slow`, `confirm`), each told which process it runs in. */
export function clusterTools(me: Answerer): readonly ContractTool[] {
  return compile([WhoAmI, Slow, Confirm], { resolve: (cls) => new (cls as new (me: Answerer) => object)(me) });
}
