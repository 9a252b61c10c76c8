import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClientCapabilities, ElicitResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ContractTool, Elicitation, JsonObject, SamplingRequest } from '../src/contract/index.js';
import { serve, type Connected } from './support/server-harness.js';

/** A tool that asks `question` and returns the answer as JSON text. */
function asking(question: Elicitation): ContractTool {
  return {
    name: 'ask',
    description: 'asks the user',
    execute: async (_args, ctx) => JSON.stringify(await ctx.elicit(question)),
  };
}

/** Serves `tool` to a client offering `capabilities` that answers every elicitation with `answer`. */
async function withClient(
  tool: ContractTool,
  capabilities: ClientCapabilities,
  answer: ElicitResult,
): Promise<Connected> {
  const connected = await serve([tool], { capabilities });
  if (capabilities.elicitation !== undefined)
    connected.client.setRequestHandler(ElicitRequestSchema, async () => answer);
  return connected;
}

/** The server-to-client requests with `method` on the wire, their params only. */
function requestsOf(wire: readonly JSONRPCMessage[], method: string): unknown[] {
  return wire
    .filter((message) => 'method' in message && 'id' in message && message.method === method)
    .map((message) => (message as { params?: unknown }).params);
}

async function callText(connected: Connected): Promise<{ text: string; isError?: boolean }> {
  const result = await connected.client.callTool({ name: 'ask' });
  return { text: (result.content as Array<{ text: string }>)[0]!.text, ...(result.isError ? { isError: true } : {}) };
}

const person: JsonObject = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
  required: ['name'],
};

test('a form question is sent in form mode and an accepted answer that matches comes back', async () => {
  const connected = await withClient(
    asking({ message: 'Who are you?', schema: person }),
    { elicitation: { form: {} } },
    { action: 'accept', content: { name: 'Ada', age: 36 } },
  );
  try {
    assert.deepEqual(await callText(connected), { text: '{"action":"accept","content":{"name":"Ada","age":36}}' });
    assert.deepEqual(requestsOf(connected.wire, 'elicitation/create'), [
      { mode: 'form', message: 'Who are you?', requestedSchema: person },
    ]);
  } finally {
    await connected.close();
  }
});

test('a question without a schema is a confirmation with the empty object schema', async () => {
  const connected = await withClient(asking({ message: 'Proceed?' }), { elicitation: {} }, { action: 'accept' });
  try {
    assert.deepEqual(await callText(connected), { text: '{"action":"accept"}' });
    assert.deepEqual(requestsOf(connected.wire, 'elicitation/create'), [
      { mode: 'form', message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } },
    ]);
  } finally {
    await connected.close();
  }
});

test('declined and cancelled answers come back without content', async () => {
  for (const action of ['decline', 'cancel'] as const) {
    const connected = await withClient(
      asking({ message: 'Who?', schema: person }),
      { elicitation: { form: {} } },
      { action, content: { name: 'ignored' } },
    );
    try {
      assert.deepEqual(await callText(connected), { text: JSON.stringify({ action }) });
    } finally {
      await connected.close();
    }
  }
});

test('an accepted answer that does not match the schema rejects with every problem', async () => {
  const connected = await withClient(
    asking({ message: 'Who?', schema: person }),
    { elicitation: { form: {} } },
    { action: 'accept', content: { age: -1 } },
  );
  try {
    assert.deepEqual(await callText(connected), {
      text: 'elicitation answer does not match the requested schema: /: must have required property "name"; /age: must be >= 0',
      isError: true,
    });
  } finally {
    await connected.close();
  }
});

test('a mode the client does not offer is answered cancel without asking', async () => {
  const cases: Array<[Elicitation, ClientCapabilities]> = [
    [{ message: 'Visit', url: 'https://example.com/consent' }, { elicitation: { form: {} } }],
    [{ message: 'Who?', schema: person }, { elicitation: { url: {} } }],
    [{ message: 'Who?', schema: person }, {}],
  ];
  for (const [question, capabilities] of cases) {
    const connected = await withClient(asking(question), capabilities, {
      action: 'accept',
      content: { name: 'never asked' },
    });
    try {
      assert.deepEqual(await callText(connected), { text: '{"action":"cancel"}' });
      assert.deepEqual(requestsOf(connected.wire, 'elicitation/create'), []);
    } finally {
      await connected.close();
    }
  }
});

test('a url question is sent in URL mode with a fresh elicitation id', async () => {
  const connected = await withClient(
    asking({ message: 'Sign in, please', url: 'https://example.com/login' }),
    { elicitation: { url: {} } },
    { action: 'accept' },
  );
  try {
    assert.deepEqual(await callText(connected), { text: '{"action":"accept"}' });
    assert.deepEqual(await callText(connected), { text: '{"action":"accept"}' });
    const sent = requestsOf(connected.wire, 'elicitation/create') as Array<{ elicitationId: string }>;
    assert.equal(sent.length, 2);
    for (const params of sent) {
      assert.deepEqual(Object.keys(params), ['mode', 'message', 'url', 'elicitationId']);
      assert.deepEqual(
        { ...params, elicitationId: 'x' },
        { mode: 'url', message: 'Sign in, please', url: 'https://example.com/login', elicitationId: 'x' },
      );
      assert.match(params.elicitationId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    assert.notEqual(sent[0]!.elicitationId, sent[1]!.elicitationId);
  } finally {
    await connected.close();
  }
});

test('a question without a message or with a broken schema fails the call clearly', async () => {
  const cases: Array<[Elicitation, string]> = [
    [{} as Elicitation, 'elicitation: the question needs a "message" string'],
    [
      { message: 'x', schema: { type: 'object', required: 'name' } },
      'elicitation: the requested schema cannot be compiled: schema is invalid: data/required must be array',
    ],
  ];
  for (const [question, expected] of cases) {
    const connected = await withClient(asking(question), { elicitation: { form: {} } }, { action: 'cancel' });
    try {
      assert.deepEqual(await callText(connected), { text: expected, isError: true });
    } finally {
      await connected.close();
    }
  }
});

const prompt: SamplingRequest = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
  maxTokens: 50,
  systemPrompt: 'Be brief',
};

function sampling(): ContractTool {
  return {
    name: 'ask',
    description: 'asks the model',
    execute: async (_args, ctx) => JSON.stringify(await ctx.sample(prompt)),
  };
}

test('sampling sends sampling/createMessage and returns the model answer', async () => {
  const connected = await serve([sampling()], { capabilities: { sampling: {} } });
  connected.client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'hi' },
    model: 'test-model',
    stopReason: 'endTurn',
  }));
  try {
    assert.deepEqual(await callText(connected), {
      text: '{"role":"assistant","content":{"type":"text","text":"hi"},"model":"test-model","stopReason":"endTurn"}',
    });
    assert.deepEqual(requestsOf(connected.wire, 'sampling/createMessage'), [prompt]);
  } finally {
    await connected.close();
  }
});

test('sampling rejects clearly when the client offers none, without sending anything', async () => {
  const connected = await serve([sampling()]);
  try {
    assert.deepEqual(await callText(connected), {
      text: 'sampling is not available: this call has no client that offers sampling',
      isError: true,
    });
    assert.deepEqual(requestsOf(connected.wire, 'sampling/createMessage'), []);
  } finally {
    await connected.close();
  }
});
