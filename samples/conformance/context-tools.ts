import { IsString, MinLength } from 'class-validator';
import { Description, Tool, ToolError, type CallContext } from '../../src/index.js';

/**
 * The conformance suite's tools that use the call context (scenarios tools-call-with-logging,
 * -with-progress, -error, -sampling, -elicitation): each shows one thing a tool can do while
 * it runs.
 */

const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

@Tool({ name: 'test_tool_with_logging', description: 'Sends three info log messages while it runs.', args: undefined })
export class TestToolWithLogging {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    ctx.log('info', 'Tool execution started');
    await pause(50, ctx.signal);
    ctx.log('info', 'Tool processing data');
    await pause(50, ctx.signal);
    ctx.log('info', 'Tool execution completed');
    return 'Tool with logging executed successfully';
  }
}

@Tool({
  name: 'test_tool_with_progress',
  description: 'Reports progress 0, 50 and 100 of 100 while it runs.',
  args: undefined,
})
export class TestToolWithProgress {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    ctx.progress({ progress: 0, total: 100 });
    await pause(50, ctx.signal);
    ctx.progress({ progress: 50, total: 100 });
    await pause(50, ctx.signal);
    ctx.progress({ progress: 100, total: 100 });
    return 'Tool with progress executed successfully';
  }
}

@Tool({ name: 'test_error_handling', description: 'Always fails, to show how a tool error reaches the client.' })
export class TestErrorHandling {
  async execute(): Promise<string> {
    throw new ToolError('This tool intentionally returns an error for testing');
  }
}

export class SamplingArgs {
  @Description('The prompt to send to the client model')
  @IsString()
  @MinLength(1)
  prompt!: string;
}

@Tool({
  name: 'test_sampling',
  description: "Asks the client's model to answer a prompt (sampling/createMessage).",
  args: SamplingArgs,
})
export class TestSampling {
  async execute(args: SamplingArgs, ctx: CallContext): Promise<string> {
    const answer = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }],
      maxTokens: 100,
    });
    const content = answer.content as { type?: unknown; text?: unknown };
    const reply =
      content.type === 'text' && typeof content.text === 'string' ? content.text : JSON.stringify(answer.content);
    return `LLM response: ${reply}`;
  }
}

export class ElicitationArgs {
  @Description('The message to show the user')
  @IsString()
  @MinLength(1)
  message!: string;
}

@Tool({
  name: 'test_elicitation',
  description: 'Asks the user for a username and an email (elicitation/create).',
  args: ElicitationArgs,
})
export class TestElicitation {
  async execute(args: ElicitationArgs, ctx: CallContext): Promise<string> {
    const answer = await ctx.elicit({
      message: args.message,
      schema: {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      },
    });
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }
}
