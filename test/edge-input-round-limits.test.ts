import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContractTool } from '../src/contract/index.js';
import { serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { envelope, modernPost, resultOf, withoutServerInfo } from './support/modern-http.js';

/*
 * `inputRounds.maxRequests` over real HTTP in the 2026-07-28 era, as the Go seed reads it: `0`
 * is the default (10 requests, the first included), `Infinity` is no limit. A tool asks one
 * question after another; a raw client answers every round (at most 20) until the call completes.
 */

const ELICIT_CAPS = { elicitation: { form: {} } };

const asker: ContractTool = {
  name: 'ask_many',
  description: 'Asks "times" questions one after another and says how many were answered',
  parameters: { type: 'object', properties: { times: { type: 'integer' } }, required: ['times'] },
  async execute(args, ctx) {
    const { times } = args as { times: number };
    let answered = 0;
    try {
      for (let i = 0; i < times; i++) {
        await ctx.elicit({ message: `Question ${i + 1}?` });
        answered += 1;
      }
      return `answered ${answered}`;
    } catch (error) {
      return `answered ${answered}; ${(error as Error).message}`;
    }
  },
};

let byDefault: HttpHandle;
let unlimited: HttpHandle;

before(async () => {
  byDefault = await serveHttp({ name: 'rounds-zero', version: '1.0.0' }, [asker], { inputRounds: { maxRequests: 0 } });
  unlimited = await serveHttp({ name: 'rounds-infinite', version: '1.0.0' }, [asker], {
    inputRounds: { maxRequests: Infinity },
  });
});

after(async () => {
  await byDefault.close();
  await unlimited.close();
});

/** Calls `ask_many` and answers every round `accept`; resolves the final result and how many requests it took. */
async function askMany(url: string, times: number): Promise<{ result: Record<string, unknown>; requests: number }> {
  let extra: Record<string, unknown> = {};
  for (let requests = 1; requests <= 20; requests++) {
    const result = resultOf(
      await modernPost(
        url,
        { id: requests, method: 'tools/call', params: { name: 'ask_many', arguments: { times }, ...extra } },
        envelope(ELICIT_CAPS),
      ),
    );
    if (result.resultType !== 'input_required') return { result: withoutServerInfo(result), requests };
    const keys = Object.keys(result.inputRequests as Record<string, unknown>);
    extra = {
      requestState: result.requestState,
      inputResponses: Object.fromEntries(keys.map((key) => [key, { action: 'accept', content: {} }])),
    };
  }
  assert.fail('the call did not complete within 20 requests');
}

test(
  'input rounds: maxRequests 0 is the default, 10 requests, so a 10th question fails at once',
  { timeout: 30_000 },
  async () => {
    assert.deepEqual(await askMany(byDefault.url, 9), {
      result: { content: [{ type: 'text', text: 'answered 9' }], resultType: 'complete' },
      requests: 10,
    });
    assert.deepEqual(await askMany(byDefault.url, 10), {
      result: {
        content: [
          {
            type: 'text',
            text: 'answered 9; this call already used its 10 requests; the question "Question 10?" cannot be asked',
          },
        ],
        resultType: 'complete',
      },
      requests: 10,
    });
  },
);

test('input rounds: maxRequests Infinity sets no limit', { timeout: 30_000 }, async () => {
  assert.deepEqual(await askMany(unlimited.url, 14), {
    result: { content: [{ type: 'text', text: 'answered 14' }], resultType: 'complete' },
    requests: 15,
  });
});
