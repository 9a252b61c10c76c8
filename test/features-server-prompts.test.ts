import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsIn, IsInt, IsOptional, IsString } from 'class-validator';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Complete,
  Description,
  MaxOutput,
  Prompt,
  Requires,
  Timeout,
  assistantMessage,
  audio,
  compilePrompts,
  embeddedText,
  image,
  resourceLink,
  userMessage,
  type CallContext,
  type CompletionRequest,
  type ContractPrompt,
} from '../src/index.js';
import { createPolicy } from '../src/runtime/index.js';
import { testPrompts } from '../src/testing/index.js';
import { responsesOf, serve } from './support/server-harness.js';

/*
 * Prompts and their completion served by createServer to a real SDK 1.x client (the 2025-11-25
 * era) in memory: listing, rendering every kind of message, the call context (log, progress,
 * elicitation), errors, the call core's time limit, output bound and permissions, and completion
 * bounded to 100 values. Exact results; one server per test.
 */

class ReviewArgs {
  @Description('The code to review')
  @IsString()
  code!: string;

  @Description('Its language')
  @IsIn(['ts', 'go', 'rust'])
  language!: string;

  @IsOptional()
  @IsInt()
  depth?: number;
}

@Prompt({ title: 'Code review', description: 'Review code', args: ReviewArgs })
class CodeReviewPrompt {
  messages(args: ReviewArgs) {
    return {
      description: `A ${args.language} review`,
      messages: [
        userMessage(`Review this ${args.language} code (depth ${args.depth ?? 1}):`),
        userMessage(embeddedText('file:///review.ts', args.code, 'text/x-typescript')),
        assistantMessage('I will.'),
      ],
    };
  }
  @Complete('code')
  snippets(value: string, request: CompletionRequest) {
    return Array.from({ length: 150 }, (_, i) => `${value}${request.arguments.language ?? '?'}${i}`);
  }
}

@Prompt({ name: 'media', description: 'Every kind of content' })
class MediaPrompt {
  messages() {
    return [
      userMessage(image('aW1n', 'image/png')),
      userMessage(audio('YXVk', 'audio/wav')),
      userMessage(resourceLink('file:///a.txt', 'a', { mimeType: 'text/plain' })),
    ];
  }
}

const prompts = compilePrompts([CodeReviewPrompt, MediaPrompt]);

test('prompts/list lists each prompt with its arguments; prompts/get renders text, embedded resources and a description', async () => {
  const { client, close } = await serve([], {}, { transport: 'memory', prompts });
  try {
    assert.deepEqual(client.getServerCapabilities()?.prompts, { listChanged: true });
    assert.deepEqual(client.getServerCapabilities()?.completions, {});
    assert.deepEqual(await client.listPrompts(), {
      prompts: [
        {
          name: 'code_review',
          title: 'Code review',
          description: 'Review code',
          arguments: [
            { name: 'code', description: 'The code to review', required: true },
            { name: 'language', description: 'Its language', required: true },
            { name: 'depth', required: false },
          ],
        },
        { name: 'media', description: 'Every kind of content' },
      ],
    });
    assert.deepEqual(
      await client.getPrompt({ name: 'code_review', arguments: { code: 'f()', language: 'ts', depth: '2' } }),
      {
        description: 'A ts review',
        messages: [
          { role: 'user', content: { type: 'text', text: 'Review this ts code (depth 2):' } },
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: { uri: 'file:///review.ts', mimeType: 'text/x-typescript', text: 'f()' },
            },
          },
          { role: 'assistant', content: { type: 'text', text: 'I will.' } },
        ],
      },
    );
    assert.deepEqual(await client.getPrompt({ name: 'media' }), {
      messages: [
        { role: 'user', content: { type: 'image', data: 'aW1n', mimeType: 'image/png' } },
        { role: 'user', content: { type: 'audio', data: 'YXVk', mimeType: 'audio/wav' } },
        { role: 'user', content: { type: 'resource_link', uri: 'file:///a.txt', name: 'a', mimeType: 'text/plain' } },
      ],
    });
  } finally {
    await close();
  }
});

test('an unknown prompt and arguments the prompt refuses are -32602; a failed rendering is -32603 with its text', async () => {
  @Prompt({ name: 'broken', description: 'Fails' })
  class Broken {
    messages() {
      throw new Error('template missing');
    }
  }
  @Prompt({ name: 'slow', description: 'Never ends' })
  @Timeout(30)
  class Slow {
    messages(_args: unknown, ctx: CallContext) {
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('late')));
    }
  }
  const handBuilt: ContractPrompt = {
    name: 'plain',
    description: 'Hand-built',
    arguments: [{ name: 'topic', required: true }],
    get: async () => ({ messages: 'nope' }) as never as string,
  };
  const set = compilePrompts([CodeReviewPrompt, Broken, Slow, handBuilt]);
  const { client, wire, close } = await serve([], {}, { transport: 'memory', prompts: set });
  try {
    const calls: [string, unknown][] = [
      ['missing', {}],
      ['code_review', { code: 'x', language: 'cobol' }],
      ['code_review', { code: 5, language: 'ts' }],
      ['plain', {}],
      ['plain', { topic: 't', other: 'o' }],
      ['plain', { topic: 't' }],
      ['broken', {}],
      ['slow', {}],
    ];
    for (const [name, args] of calls)
      await client.getPrompt({ name, arguments: args as Record<string, string> }).catch(() => undefined);
    assert.deepEqual(
      responsesOf(wire)
        .slice(1)
        .map((message) => (message as { error?: unknown }).error),
      [
        { code: -32602, message: 'Unknown prompt: missing' },
        { code: -32602, message: 'invalid arguments: /language: must be one of "ts", "go", "rust"' },
        {
          code: -32602,
          message: 'invalid arguments: /code: must be a string (prompt arguments are strings), got a number',
        },
        { code: -32602, message: 'invalid arguments: /: must have required property "topic"' },
        { code: -32602, message: 'invalid arguments: /: must NOT have additional property "other"' },
        {
          code: -32603,
          message:
            'prompt "plain" returned an invalid output: expected text, an array of messages or { messages }, got an object',
        },
        { code: -32603, message: 'template missing' },
        { code: -32603, message: 'prompt "slow" timed out after 30 ms' },
      ],
    );
  } finally {
    await close();
  }
});

test('a prompt gets the call context: log messages, progress, and elicitation pushed to a 2025-era client', async () => {
  class TopicArgs {
    @IsString()
    topic!: string;
  }
  @Prompt({ name: 'interview', description: 'Asks first', args: TopicArgs })
  class Interview {
    async messages(args: TopicArgs, ctx: CallContext) {
      ctx.log('info', { rendering: args.topic }, 'interview');
      ctx.progress({ progress: 1, total: 2, message: 'asking' });
      const answer = await ctx.elicit({
        message: `Which angle on ${args.topic}?`,
        schema: { type: 'object', properties: { angle: { type: 'string' } } },
      });
      return `Write about ${args.topic} from the ${String(answer.content?.angle)} angle (${ctx.call.tool}, ${ctx.session?.transport})`;
    }
  }
  const { client, close } = await serve(
    [],
    { capabilities: { elicitation: { form: {} } } },
    { transport: 'memory', prompts: compilePrompts([Interview]) },
  );
  const logs: unknown[] = [];
  const progress: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => void logs.push(note.params));
  client.setRequestHandler(ElicitRequestSchema, async (request) => ({
    action: 'accept',
    content: { angle: request.params.message.includes('cats') ? 'feline' : 'other' },
  }));
  try {
    const result = await client.getPrompt(
      { name: 'interview', arguments: { topic: 'cats' } },
      {
        onprogress: (update) => void progress.push(update),
      },
    );
    assert.deepEqual(result, {
      messages: [
        { role: 'user', content: { type: 'text', text: 'Write about cats from the feline angle (interview, memory)' } },
      ],
    });
    assert.deepEqual(logs, [{ level: 'info', logger: 'interview', data: { rendering: 'cats' } }]);
    assert.deepEqual(progress, [{ progress: 1, total: 2, message: 'asking' }]);
  } finally {
    await close();
  }
});

test('the messages are bounded by @MaxOutput with the visible marker; @Requires is checked through the policy', async () => {
  class Args {
    @IsString()
    topic!: string;
  }
  @Prompt({ name: 'long', description: 'Too long', args: Args })
  @MaxOutput({ chars: 5 })
  @Requires({ capabilities: ['discuss'], subject: (args: Args) => args.topic })
  class Long {
    messages(args: Args) {
      return [
        userMessage('abc'),
        userMessage(image('aW1n', 'image/png')),
        userMessage(`${args.topic}defgh`),
        userMessage('dropped'),
      ];
    }
  }
  const policy = createPolicy({
    rules: [
      { effect: 'allow', subject: 'cats', capabilities: ['discuss'] },
      { effect: 'deny', capabilities: ['discuss'] },
    ],
  });
  const { client, close } = await serve([], {}, { transport: 'memory', prompts: compilePrompts([Long]), policy });
  try {
    assert.deepEqual(await client.getPrompt({ name: 'long', arguments: { topic: 'cats' } }), {
      messages: [
        { role: 'user', content: { type: 'text', text: 'abc' } },
        { role: 'user', content: { type: 'image', data: 'aW1n', mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'ca\n…[truncated: showing 5 of 19 characters]' } },
      ],
    });
    await assert.rejects(client.getPrompt({ name: 'long', arguments: { topic: 'dogs' } }), {
      code: -32603,
      message: 'MCP error -32603: permission denied: discuss on "dogs"',
    });
  } finally {
    await close();
  }
});

test('completion/complete of a prompt argument gets the arguments already filled in and is bounded to 100 values', async () => {
  const { client, wire, close } = await serve([], {}, { transport: 'memory', prompts });
  try {
    const answer = await client.complete({
      ref: { type: 'ref/prompt', name: 'code_review' },
      argument: { name: 'code', value: 'x' },
      context: { arguments: { language: 'go' } },
    });
    assert.equal(answer.completion.values.length, 100);
    assert.deepEqual(answer.completion.values.slice(0, 2), ['xgo0', 'xgo1']);
    assert.equal(answer.completion.total, 150);
    assert.equal(answer.completion.hasMore, true);
    assert.deepEqual(
      await client.complete({
        ref: { type: 'ref/prompt', name: 'code_review' },
        argument: { name: 'language', value: 'R' },
      }),
      { completion: { values: ['rust'] } },
    );
    assert.deepEqual(
      await client.complete({
        ref: { type: 'ref/prompt', name: 'code_review' },
        argument: { name: 'depth', value: '' },
      }),
      { completion: { values: [] } },
    );
    for (const params of [
      { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } },
      { ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'nope', value: '' } },
      { ref: { type: 'ref/tool', name: 'x' }, argument: { name: 'a', value: '' } },
    ])
      await client.complete(params as never).catch(() => undefined);
    assert.deepEqual(
      responsesOf(wire)
        .slice(-3)
        .map((message) => (message as { error?: unknown }).error),
      [
        { code: -32602, message: 'Unknown prompt: nope' },
        { code: -32602, message: 'completion/complete: prompt "code_review" has no argument "nope"' },
        { code: -32602, message: 'completion/complete: unknown ref type "ref/tool"' },
      ],
    );
  } finally {
    await close();
  }
});

test('toolwright/testing renders prompts in process with the exact results a server sends, with the context it is given', async () => {
  @Prompt({ name: 'whoami', description: 'Names the caller' })
  class WhoAmI {
    messages(_args: unknown, ctx: CallContext) {
      return `hello ${ctx.principal?.subject ?? 'nobody'}`;
    }
  }
  const tester = testPrompts([CodeReviewPrompt, MediaPrompt, WhoAmI], {
    context: { principal: { subject: 'ada', clientId: 'c', scopes: [], claims: {} } },
  });
  const { client, close } = await serve([], {}, { transport: 'memory', prompts });
  try {
    const listed = await client.listPrompts();
    assert.deepEqual((await tester.listPrompts()).prompts, [
      ...listed.prompts,
      { name: 'whoami', description: 'Names the caller' },
    ]);
    const args = { code: 'f()', language: 'go' };
    assert.deepEqual(
      await tester.getPrompt('code_review', args),
      await client.getPrompt({ name: 'code_review', arguments: args }),
    );
    assert.deepEqual(await tester.getPrompt('whoami'), {
      messages: [{ role: 'user', content: { type: 'text', text: 'hello ada' } }],
    });
    assert.deepEqual(await tester.complete('code_review', 'language', 'g'), { completion: { values: ['go'] } });
    await assert.rejects(tester.getPrompt('code_review', { code: 'x' }), {
      name: 'ProtocolError',
      code: -32602,
      message: 'invalid arguments: /: must have required property "language"',
    });
  } finally {
    await close();
  }
});

test('a question that names its input-round key is still pushed to a 2025-era client, from a tool or a prompt', async () => {
  const ask = async (ctx: CallContext) => (await ctx.elicit({ key: 'topic', message: 'Which topic?' })).action;
  const { client, close } = await serve(
    [{ name: 'asks', description: 'Asks with a key', execute: async (_args, ctx) => ask(ctx) }],
    { capabilities: { elicitation: { form: {} } } },
    {
      transport: 'memory',
      prompts: [{ name: 'asks', description: 'Asks with a key', get: async (_args, ctx) => ask(ctx) }],
    },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
  try {
    assert.deepEqual(await client.callTool({ name: 'asks' }, undefined, { timeout: 5_000 }), {
      content: [{ type: 'text', text: 'decline' }],
    });
    assert.deepEqual(await client.getPrompt({ name: 'asks' }, { timeout: 5_000 }), {
      messages: [{ role: 'user', content: { type: 'text', text: 'decline' } }],
    });
  } finally {
    await close();
  }
});
