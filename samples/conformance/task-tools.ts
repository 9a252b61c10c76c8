import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { TaskSupport, Tool, ToolError, type CallContext } from '../../src/index.js';

/**
 * The fixtures of the conformance suite's `tasks-*` scenarios (the 2026-07-28
 * `io.modelcontextprotocol/tasks` extension, @modelcontextprotocol/conformance 0.2.0-alpha.11):
 * a plain tool and task tools that sleep, fail, ask questions inside the task, or end with a
 * JSON-RPC error. Each is an ordinary toolwright tool; `@TaskSupport` makes it a task.
 */

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts (a cancel). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

class GreetArgs {
  @IsString()
  name!: string;
}

@Tool({ name: 'greet', description: 'Greets someone at once (never a task).', args: GreetArgs })
export class Greet {
  execute(args: GreetArgs): string {
    return `Hello, ${args.name}!`;
  }
}

class SlowComputeArgs {
  @IsInt()
  @Min(0)
  @Max(120)
  seconds!: number;

  @IsOptional()
  @IsString()
  label?: string;
}

@Tool({
  name: 'slow_compute',
  description: 'Computes for `seconds` seconds (a task when the client allows).',
  args: SlowComputeArgs,
})
@TaskSupport('optional', { ttlMs: 600_000, pollIntervalMs: 100 })
export class SlowCompute {
  async execute(args: SlowComputeArgs, ctx: CallContext): Promise<string> {
    await sleep(args.seconds * 1000, ctx.signal);
    return `computed ${args.label ?? 'result'} in ${args.seconds} s`;
  }
}

@Tool({
  name: 'failing_job',
  description: 'Fails after a moment with a tool error (runs only as a task).',
  args: undefined,
})
@TaskSupport('required', { ttlMs: 600_000, pollIntervalMs: 100 })
export class FailingJob {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    await sleep(500, ctx.signal);
    throw new ToolError('the job failed: the report source is unreachable');
  }
}

@Tool({
  name: 'protocol_error_job',
  description:
    "Asks for the client's roots inside the task: a request that does not offer roots ends the task failed with -32021.",
  args: undefined,
})
@TaskSupport('required', { ttlMs: 600_000, pollIntervalMs: 100 })
export class ProtocolErrorJob {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const roots = await ctx.roots();
    return `the client shares ${roots.length} roots`;
  }
}

class ConfirmDeleteArgs {
  @IsString()
  filename!: string;
}

@Tool({
  name: 'confirm_delete',
  description: 'Asks for a confirmation inside the task, then "deletes" the file.',
  args: ConfirmDeleteArgs,
})
@TaskSupport('required', { ttlMs: 600_000, pollIntervalMs: 100 })
export class ConfirmDelete {
  async execute(args: ConfirmDeleteArgs, ctx: CallContext): Promise<string> {
    const answer = await ctx.elicit({
      message: `Delete ${args.filename}?`,
      schema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    return answer.action === 'accept' && answer.content?.confirm === true
      ? `deleted ${args.filename}`
      : `kept ${args.filename} (${answer.action})`;
  }
}

const NAME_AND_CONFIRM = {
  type: 'object',
  properties: { name: { type: 'string' }, confirm: { type: 'boolean' } },
};

@Tool({ name: 'multi_input', description: 'Asks two questions at once inside the task.', args: undefined })
@TaskSupport('required', { ttlMs: 600_000, pollIntervalMs: 100 })
export class MultiInput {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const [first, second] = await Promise.all([
      ctx.elicit({ message: 'First name?', schema: NAME_AND_CONFIRM }),
      ctx.elicit({ message: 'Second name?', schema: NAME_AND_CONFIRM }),
    ]);
    return `got ${String(first.content?.name ?? first.action)} and ${String(second.content?.name ?? second.action)}`;
  }
}

@Tool({
  name: 'test_tool_with_task',
  description: 'Asks for a name (input request "user_name") as a plain call, then continues as a task that greets it.',
  args: undefined,
})
@TaskSupport('required', { ttlMs: 600_000, pollIntervalMs: 100, startsAsCall: true })
export class TestToolWithTask {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    // Round 1 is an input_required answer to the tools/call itself (MRTR): no task yet.
    const answer = await ctx.elicit({
      key: 'user_name',
      message: 'What is your name?',
      schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    // The retry that brought the answer is answered with the task (a CreateTaskResult).
    await ctx.continueAsTask();
    return answer.action === 'accept' ? `Hello, ${String(answer.content?.name)}!` : `No name given (${answer.action}).`;
  }
}
