import assert from 'node:assert/strict';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import type { RawResponse } from './transport-http-probe.js';

/** The two SDK lines a user connects with: `@modelcontextprotocol/sdk` 1.x and `@modelcontextprotocol/client` 2.x. */
export const SDK_LINES = ['1.x', '2.x'] as const;
export type SdkLine = (typeof SDK_LINES)[number];

/** What the tests ask of a connected SDK client (1.x and 2.x share it). */
export interface ConnectedClient {
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/** Connects an SDK client of `line` to `url`, sending `Authorization: Bearer <token>` on every request. */
export async function connectWithToken(line: SdkLine, url: string, token: string): Promise<ConnectedClient> {
  const requestInit = { headers: { authorization: `Bearer ${token}` } };
  const info = { name: `auth-test-${line}`, version: '1.0.0' };
  if (line === '1.x') {
    const client = new Client1(info);
    await client.connect(new Transport1(new URL(url), { requestInit }));
    return client;
  }
  const client = new Client2(info);
  await client.connect(new Transport2(new URL(url), { requestInit }));
  return client as unknown as ConnectedClient;
}

/** The principal `whoami` answers to a connected client. */
export async function whoami(client: ConnectedClient): Promise<Record<string, unknown>> {
  const result = (await client.callTool({ name: 'whoami', arguments: {} })) as { content: Array<{ text: string }> };
  return JSON.parse(result.content[0]!.text) as Record<string, unknown>;
}

/**
 * Asserts that an SDK client of `line` cannot connect to `url` with `token`, and resolves the
 * HTTP status and OAuth body its error carries (1.x: `code` and the message's JSON; 2.x:
 * `status` and the same).
 */
export async function refusedClient(
  line: SdkLine,
  url: string,
  token: string,
): Promise<{ status: number; body: unknown }> {
  let refusal: { status: number; body: unknown } | undefined;
  await assert.rejects(connectWithToken(line, url, token), (error: Error & { code?: unknown; status?: unknown }) => {
    const status = line === '1.x' ? error.code : error.status;
    const json = /\{.*\}$/.exec(error.message)?.[0];
    refusal = {
      status: typeof status === 'number' ? status : -1,
      body: json === undefined ? error.message : JSON.parse(json),
    };
    return true;
  });
  return refusal!;
}

/** Asserts a refusal exactly: status, `WWW-Authenticate` and the OAuth JSON body. */
export function assertRefusal(res: RawResponse, status: number, challenge: string, body: object): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.headers['www-authenticate'], challenge);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(res.text), body);
}
