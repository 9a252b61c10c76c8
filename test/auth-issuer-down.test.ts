import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { JWK } from 'jose';
import { serveHttp, type HttpHandle } from '../src/index.js';
import {
  DEFAULT_FAILED_FETCH_CACHE_MS,
  introspectionVerifier,
  jwtVerifier,
  type TokenVerifier,
} from '../src/mcp/index.js';
import { AUTH_TOOLS } from './support/auth-tools.js';
import { signingKeys, signToken } from './support/auth-provider.js';
import { METADATA_PATHS, startFakeIssuer, type FakeIssuer } from './support/auth-fake-issuer.js';
import { connectWithToken, whoami } from './support/auth-clients.js';
import { INITIALIZE, POST_HEADERS, rawRequest, type RawResponse } from './support/transport-http-probe.js';

// An unreachable issuer must not amplify garbage (issue 20, item 4). The issuer is a
// `FakeIssuer` on 127.0.0.1 that counts every request and answers 503 while "down"; the
// verifiers' clock is a variable the test moves, so the failure memory
// (`DEFAULT_FAILED_FETCH_CACHE_MS`, 5 s) expires exactly when the test says, and the counts
// are exact. Each test prints its figures.

const INFO = { name: 'auth-issuer-down', version: '1.0.0' };
const GARBAGE = 100;
const SERVER_ERROR = { error: 'server_error', error_description: 'Internal Server Error' };

interface Setup {
  readonly issuer: FakeIssuer;
  readonly handle: HttpHandle;
  readonly errors: string[];
  /** Moves the verifier's clock past the failure memory. */
  readonly later: () => void;
}

/**
 * A fresh `FakeIssuer` and a server whose verifier (made by `verifier` for the issuer's URL and the
 * test's clock) trusts it.
 */
async function setUp(
  t: { after(fn: () => Promise<void>): void },
  verifier: (issuer: string, now: () => number) => TokenVerifier,
): Promise<Setup> {
  const issuer = await startFakeIssuer();
  let clock = Date.now();
  const errors: string[] = [];
  const handle = await serveHttp(INFO, AUTH_TOOLS, {
    onError: (error) => errors.push(error.message),
    auth: { verifier: verifier(issuer.issuer, () => clock), issuer: issuer.issuer },
  });
  t.after(async () => {
    await handle.close();
    await issuer.close();
  });
  return { issuer, handle, errors, later: () => (clock += DEFAULT_FAILED_FETCH_CACHE_MS + 1) };
}

/** Sends one `initialize` per token, all at once, and resolves the answers. */
const sendAll = (handle: HttpHandle, tokens: readonly string[]): Promise<RawResponse[]> =>
  Promise.all(
    tokens.map((token) =>
      rawRequest(handle.port, { headers: { ...POST_HEADERS, authorization: `Bearer ${token}` }, body: INITIALIZE }),
    ),
  );

/** Asserts every answer is `status` with `body`. */
function assertAll(answers: readonly RawResponse[], status: number, body: object): void {
  assert.equal(answers.length, GARBAGE);
  for (const answer of answers) {
    assert.equal(answer.status, status, answer.text);
    assert.deepEqual(JSON.parse(answer.text), body);
  }
}

/** `GARBAGE` well-formed access tokens for `issuer`, signed with keys it never published. */
async function forgedTokens(issuer: string, resource: string): Promise<string[]> {
  const attacker: { keys: JWK[] } = await signingKeys();
  const seconds = Math.floor(Date.now() / 1000);
  return Promise.all(
    Array.from({ length: GARBAGE }, () =>
      signToken(attacker, { iss: issuer, sub: 'mallory', aud: resource, exp: seconds + 600, jti: randomUUID() }),
    ),
  );
}

test(
  'auth issuer down: 100 forged JWTs while the issuer is unreachable cause 2 metadata fetches, not 200; its JWKS down, 1 JWKS fetch; the verifier recovers once it is back',
  { timeout: 60_000 },
  async (t) => {
    const { issuer, handle, errors, later } = await setUp(t, (url, now) => jwtVerifier({ issuer: url, now }));
    const forged = await forgedTokens(issuer.issuer, handle.url);
    const figures: Record<string, number> = {};

    // Down: the metadata and the JWKS answer 503.
    issuer.down.metadata = true;
    issuer.down.jwks = true;
    assertAll(await sendAll(handle, forged), 500, SERVER_ERROR);
    figures['metadata down: fetches for 100 forged tokens'] = issuer.requests.length;
    assert.equal(issuer.requests.length, 2, 'fetches while the issuer is down');
    assert.deepEqual(
      issuer.requests.map((r) => r.path),
      METADATA_PATHS,
    );
    const cannot = `cannot discover the authorization server ${issuer.issuer}: ${METADATA_PATHS.map((path) => `${issuer.issuer}${path}: HTTP 503`).join('; ')}`;
    assert.deepEqual(
      [...new Set(errors)],
      [cannot, `${cannot} (not fetched again for ${DEFAULT_FAILED_FETCH_CACHE_MS} ms)`],
    );
    assert.equal(errors.length, GARBAGE);
    // Tokens that are not even JWTs never cause a fetch.
    assertAll(
      await sendAll(
        handle,
        forged.map((_, i) => `garbage-${i}`),
      ),
      401,
      { error: 'invalid_token', error_description: 'Token is not a valid JWT: Invalid Compact JWS' },
    );
    assert.equal(issuer.requests.length, 2);

    // The metadata is back, the JWKS still down.
    issuer.down.metadata = false;
    later();
    assertAll(await sendAll(handle, forged), 500, SERVER_ERROR);
    figures['JWKS down: fetches for 100 forged tokens'] = issuer.requests.length - 2;
    assert.equal(issuer.requests.length - 2, 2, 'fetches while the JWKS is down');
    assert.deepEqual(
      issuer.requests.slice(2).map((r) => r.path),
      [METADATA_PATHS[0], '/jwks'],
    );

    // All back: a user's client gets in, forged tokens are refused for their signature, and
    // the keys are fetched once (jose refetches for an unknown key id at most every 30 s).
    issuer.down.jwks = false;
    later();
    const seconds = Math.floor(Date.now() / 1000);
    const valid = await signToken(issuer.keys, {
      iss: issuer.issuer,
      sub: 'grace',
      client_id: 'grace-client',
      aud: handle.url,
      exp: seconds + 600,
    });
    const client = await connectWithToken('2.x', handle.url, valid);
    try {
      assert.equal((await whoami(client)).subject, 'grace');
    } finally {
      await client.close();
    }
    assertAll(await sendAll(handle, forged), 401, {
      error: 'invalid_token',
      error_description: 'Token signature is invalid',
    });
    figures['back: fetches for a client session and 100 forged tokens'] = issuer.requests.length - 4;
    assert.deepEqual(
      issuer.requests.slice(4).map((r) => r.path),
      ['/jwks'],
    );
    t.diagnostic(`issuer down figures: ${JSON.stringify(figures)}`);
  },
);

test(
  'auth issuer down: introspection with an unreachable issuer: 100 garbage tokens cause 2 metadata fetches; once it is back, one introspection per token',
  { timeout: 60_000 },
  async (t) => {
    const { issuer, handle, later } = await setUp(t, (url, now) =>
      introspectionVerifier({ issuer: url, clientId: 'rs', clientSecret: 'rs-secret', now }),
    );
    const garbage = Array.from({ length: GARBAGE }, (_, i) => `garbage-${i}`);
    issuer.down.metadata = true;
    assertAll(await sendAll(handle, garbage), 500, SERVER_ERROR);
    assert.equal(issuer.requests.length, 2, 'fetches while the issuer is down');

    issuer.down.metadata = false;
    later();
    assertAll(await sendAll(handle, garbage), 401, {
      error: 'invalid_token',
      error_description: 'Token is not active',
    });
    assert.deepEqual([issuer.count(METADATA_PATHS[0]!), issuer.count('/introspect')], [2, GARBAGE]);
    issuer.introspection.set('good', {
      active: true,
      sub: 'heidi',
      client_id: 'heidi-client',
      exp: Math.floor(Date.now() / 1000) + 600,
      aud: handle.url,
      iss: issuer.issuer,
    });
    const client = await connectWithToken('1.x', handle.url, 'good');
    try {
      assert.equal((await whoami(client)).subject, 'heidi');
    } finally {
      await client.close();
    }
    t.diagnostic(
      `introspection figures: metadata down: ${2} fetches for ${GARBAGE} tokens; back: ${issuer.count(METADATA_PATHS[0]!) - 1} metadata fetch and ${GARBAGE} introspections for ${GARBAGE} tokens`,
    );
  },
);
