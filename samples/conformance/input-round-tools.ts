import { Tool, type CallContext, type ContractTool } from '../../src/index.js';

/**
 * The conformance suite's 2026-07-28 tools (@modelcontextprotocol/conformance 0.2.0-alpha.11,
 * `--spec-version 2026-07-28`): each asks its questions with `ctx.elicit` and `ctx.sample` and
 * waits for the answers, as a tool does in every era. In the 2026-07-28 era toolwright parks the
 * call and answers `input_required` (the questions named by their `key`), and the client's retry
 * resumes it; 2025-era clients get the same questions pushed.
 */

const NAME_FORM = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

/** The text of a sampling answer, or its JSON when it is not text. */
function sampledText(content: unknown): string {
  const part = content as { type?: unknown; text?: unknown };
  return part.type === 'text' && typeof part.text === 'string' ? part.text : JSON.stringify(content);
}

@Tool({
  name: 'test_input_required_result_elicitation',
  description: 'Asks for a name (input request "user_name") and greets it.',
  args: undefined,
})
export class TestInputRequiredElicitation {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const answer = await ctx.elicit({ key: 'user_name', message: 'What is your name?', schema: NAME_FORM });
    return answer.action === 'accept' ? `Hello, ${String(answer.content?.name)}!` : `No name given (${answer.action}).`;
  }
}

@Tool({
  name: 'test_input_required_result_sampling',
  description: 'Asks the client model for the capital of France (input request "capital_question").',
  args: undefined,
})
export class TestInputRequiredSampling {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const answer = await ctx.sample({
      key: 'capital_question',
      messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
      maxTokens: 100,
    });
    return `The model answered: ${sampledText(answer.content)}`;
  }
}

@Tool({
  name: 'test_input_required_result_request_state',
  description: "Asks for a confirmation; its answer comes back with the call's requestState.",
  args: undefined,
})
export class TestInputRequiredRequestState {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const answer = await ctx.elicit({
      key: 'confirm',
      message: 'Please confirm',
      schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    // The answer reached this very run: the requestState named it, so the state was valid.
    return `state-ok: ${answer.action}`;
  }
}

@Tool({
  name: 'test_input_required_result_multi_round',
  description: 'Asks two questions, one round each ("step1", then "step2").',
  args: undefined,
})
export class TestInputRequiredMultiRound {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const name = await ctx.elicit({ key: 'step1', message: 'Step 1: What is your name?', schema: NAME_FORM });
    const color = await ctx.elicit({
      key: 'step2',
      message: 'Step 2: What is your favorite color?',
      schema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
    });
    return `${String(name.content?.name ?? name.action)} likes ${String(color.content?.color ?? color.action)}`;
  }
}

@Tool({
  name: 'test_input_required_result_tampered_state',
  description: 'Asks for a confirmation; a retry with a requestState toolwright never minted is refused.',
  args: undefined,
})
export class TestInputRequiredTamperedState {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const answer = await ctx.elicit({
      key: 'confirm',
      message: 'Please confirm',
      schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    return `confirmed: ${answer.action}`;
  }
}

@Tool({
  name: 'test_input_required_result_capabilities',
  description: 'Asks the user and the client model together; a client that offers only sampling is asked only that.',
  args: undefined,
})
export class TestInputRequiredCapabilities {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const [user, model] = await Promise.all([
      ctx.elicit({ key: 'user_name', message: 'What is your name?', schema: NAME_FORM }),
      ctx.sample({
        key: 'greeting',
        messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
        maxTokens: 50,
      }),
    ]);
    return `user: ${user.action}; model: ${sampledText(model.content)}`;
  }
}

@Tool({
  name: 'test_missing_capability',
  description: 'Needs the client model: a request that does not offer sampling gets the -32021 error.',
  args: undefined,
})
export class TestMissingCapability {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const answer = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
      maxTokens: 20,
    });
    return sampledText(answer.content);
  }
}

@Tool({
  name: 'test_streaming_elicitation',
  description: 'Asks the user while it runs (never a request pushed on the response stream in the 2026-07-28 era).',
  args: undefined,
})
export class TestStreamingElicitation {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    ctx.progress('asking');
    const answer = await ctx.elicit({
      message: 'Continue?',
      schema: { type: 'object', properties: { go: { type: 'boolean' } } },
    });
    return `answered: ${answer.action}`;
  }
}

@Tool({
  name: 'test_logging_tool',
  description: 'Logs three messages; a request that names no log level gets none of them.',
  args: undefined,
})
export class TestLoggingTool {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    ctx.log('info', 'first');
    ctx.log('warning', 'second');
    ctx.log('error', 'third');
    return 'logged';
  }
}

/**
 * `test_custom_headers` (scenario http-custom-header-server-validation, SEP-2243): its `region`
 * parameter is marked `x-mcp-header`, so a 2026-07-28 client mirrors it in an `Mcp-Param-Region`
 * header, which toolwright's HTTP edge checks against the body. A hand-built tool: a DTO class
 * has no decorator for the mark.
 */
export const testCustomHeaders: ContractTool = Object.freeze({
  name: 'test_custom_headers',
  description: 'Echoes a region that the client also sends as the Mcp-Param-Region header.',
  parameters: {
    type: 'object',
    properties: {
      region: {
        type: 'string',
        'x-mcp-header': 'Region',
        description: 'The region, mirrored in the Mcp-Param-Region header',
      },
    },
    required: ['region'],
    additionalProperties: false,
  },
  async execute(args: unknown): Promise<string> {
    return `region: ${String((args as { region?: unknown }).region)}`;
  },
});

@Tool({
  name: 'test_input_required_result_list_roots',
  description: 'Asks the client for its roots (input request "client_roots") and lists them.',
  args: undefined,
})
export class TestInputRequiredListRoots {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const roots = await ctx.roots({ key: 'client_roots' });
    return `roots: ${roots.map((root) => root.uri).join(', ')}`;
  }
}

@Tool({
  name: 'test_input_required_result_multiple_inputs',
  description: "Asks the user, the client model and the client's roots in one round.",
  args: undefined,
})
export class TestInputRequiredMultipleInputs {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const [user, model, roots] = await Promise.all([
      ctx.elicit({ key: 'user_name', message: 'What is your name?', schema: NAME_FORM }),
      ctx.sample({
        key: 'greeting',
        messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
        maxTokens: 50,
      }),
      ctx.roots({ key: 'client_roots' }),
    ]);
    return `name: ${String(user.content?.name ?? user.action)}; greeting: ${sampledText(model.content)}; roots: ${roots.length}`;
  }
}
