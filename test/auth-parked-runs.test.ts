import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContractTool } from '../src/contract/index.js';
import { serveHttp, type HttpHandle } from '../src/index.js';
import { jwtVerifier } from '../src/mcp/index.js';
import { signingKeys, startProvider, type TestProvider } from './support/auth-provider.js';
import { envelope, modernPost, resultOf, withoutServerInfo } from './support/modern-http.js';

/*
 * A parked 2026-07-28-era run (a call waiting for `inputResponses`) belongs to the principal that
 * started it: a retry carrying its `requestState` with another principal's valid token is
 * answered as stale and never resumes, reads or ends the run; the rightful principal still can.
 * One real `oidc-provider` and one toolwright server behind it, shared by the tests of this file.
 */

const STALE = 'the call these answers belong to is no longer waiting for them; call the tool again';
const ELICIT_CAPS = { elicitation: { form: {} } };
const FORM = { type: 'object', properties: { secret: { type: 'string' } } };

/** What `vault` did, in order, for assertions. */
const seen: string[] = [];

const vault: ContractTool = {
  name: 'vault',
  description: 'Asks its caller for a secret and stores it under the caller',
  async execute(_args, ctx) {
    const who = ctx.principal?.subject ?? 'nobody';
    seen.push(`asked ${who}`);
    const answer = await ctx.elicit({ message: 'Secret?', schema: FORM });
    seen.push(`answered ${who}: ${answer.action} ${JSON.stringify(answer.content ?? null)}`);
    return `stored for ${who}: ${answer.action}`;
  },
};

let provider: TestProvider;
let server: HttpHandle;

before(async () => {
  provider = await startProvider(await signingKeys());
  server = await serveHttp({ name: 'auth-parked', version: '1.0.0' }, [vault], {
    auth: { verifier: jwtVerifier({ issuer: provider.issuer }), issuer: provider.issuer, requiredScopes: ['mcp'] },
  });
});

after(async () => {
  await server.close();
  await provider.close();
});

const tokenOf = (who: 'alice' | 'bob') => provider.token(provider.clients[who], { resource: server.url, scope: 'mcp' });
const call = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  method: 'tools/call',
  params: { name: 'vault', arguments: {}, ...extra },
});
const post = (token: string, request: ReturnType<typeof call>) =>
  modernPost(server.url, request, envelope(ELICIT_CAPS), undefined, { authorization: `Bearer ${token}` });

test('auth: a parked 2026-era run answers only the principal that started it', { timeout: 30_000 }, async () => {
  const [alice, bob] = await Promise.all([tokenOf('alice'), tokenOf('bob')]);
  seen.length = 0;
  const first = resultOf(await post(alice, call(1)));
  assert.equal(first.resultType, 'input_required');
  const state = first.requestState as string;
  assert.equal(typeof state, 'string');

  // Bob holds a valid token and Alice's state: his retry is stale, and nothing of Alice's run moves.
  const stolen = await post(
    bob,
    call(2, {
      requestState: state,
      inputResponses: { elicit_1: { action: 'accept', content: { secret: 'bob-injected' } } },
    }),
  );
  assert.equal(stolen.status, 200);
  assert.deepEqual(withoutServerInfo(resultOf(stolen)), {
    content: [{ type: 'text', text: STALE }],
    isError: true,
    resultType: 'complete',
  });
  assert.deepEqual(seen, ['asked alice']);

  // Alice's own retry still finds the run waiting, and it resumes in place with her answer.
  const mine = await post(
    alice,
    call(3, { requestState: state, inputResponses: { elicit_1: { action: 'accept', content: { secret: 's3cret' } } } }),
  );
  assert.deepEqual(withoutServerInfo(resultOf(mine)), {
    content: [{ type: 'text', text: 'stored for alice: accept' }],
    resultType: 'complete',
  });
  assert.deepEqual(seen, ['asked alice', 'answered alice: accept {"secret":"s3cret"}']);
});

test('auth: a parked run cannot be taken over without a token either', { timeout: 30_000 }, async () => {
  const alice = await tokenOf('alice');
  const first = resultOf(await post(alice, call(1)));
  const state = first.requestState as string;
  const anonymous = await modernPost(
    server.url,
    call(2, { requestState: state, inputResponses: { elicit_1: { action: 'decline' } } }),
    envelope(ELICIT_CAPS),
  );
  assert.equal(anonymous.status, 401);
  const mine = await post(alice, call(3, { requestState: state, inputResponses: { elicit_1: { action: 'decline' } } }));
  assert.deepEqual(withoutServerInfo(resultOf(mine)), {
    content: [{ type: 'text', text: 'stored for alice: decline' }],
    resultType: 'complete',
  });
});
