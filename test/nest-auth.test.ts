import 'reflect-metadata';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Controller,
  Get,
  Injectable,
  Module,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { IsString } from 'class-validator';
import { Scopes, Tool, type CallContext } from '../src/index.js';
import { jwtVerifier } from '../src/mcp/index.js';
import { ToolwrightModule, toolCallOf, type ToolwrightModuleOptions } from '../src/nest/index.js';
import { startProvider, type TestProvider } from './support/auth-provider.js';
import { connectEraClient, ERA_CLIENT_KINDS } from './support/nest-era-clients.js';
import {
  INITIALIZE,
  POST_HEADERS,
  rawRequest,
  answerMessages,
  sseMessages,
  type RawResponse,
} from './support/transport-http-probe.js';
import { envelope, MODERN, resultOf, withoutServerInfo } from './support/modern-http.js';
import { STALE_STATE_TEXT } from '../src/mcp/index.js';

/**
 * `ToolwrightModule.forRoot({ auth })`: the Nest application's MCP endpoint as an OAuth 2.1
 * resource server (the same gate as `serveHttp`), against a real `oidc-provider` on 127.0.0.1
 * issuing tokens by client credentials, on Express and Fastify: the protected resource metadata
 * on the application's server, 401 without a token and 403 without a scope (exact headers and
 * bodies), `ctx.principal` on every call and in Nest guards, `@Scopes` refused before the tool
 * runs, sessions bound to their principal, both eras; the application's other routes untouched.
 * About 10 s.
 */

const TIMEOUT = { timeout: 60_000 };
let provider: TestProvider;
const created: string[] = [];
const guardSaw: string[] = [];

before(async () => {
  provider = await startProvider();
});

after(async () => {
  await provider.close();
});

/** A Nest guard reading the verified principal from the tool call's context. */
@Injectable()
class PrincipalGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const principal = toolCallOf(context)?.context.principal;
    guardSaw.push(principal?.subject ?? '(none)');
    return principal !== undefined;
  }
}

@Injectable()
@Tool({ name: 'whoami', description: 'Say who is calling', args: undefined })
@UseGuards(PrincipalGuard)
class WhoAmITool {
  execute(_args: object, ctx: CallContext): string {
    const principal = ctx.principal!;
    return `${principal.subject} via ${principal.clientId} with ${principal.scopes.join(' ')}`;
  }
}

class TitleArgs {
  @IsString()
  title!: string;
}

@Injectable()
@Tool({ name: 'create_issue', description: 'Open an issue', args: TitleArgs })
@Scopes('issues:write')
class CreateIssueTool {
  execute(args: TitleArgs): string {
    created.push(args.title);
    return `created ${args.title}`;
  }
}

@Injectable()
@Tool({ name: 'ask', description: 'Ask the user, then report the answer', args: undefined })
class AskTool {
  async execute(_args: object, ctx: CallContext): Promise<string> {
    const reply = await ctx.elicit({
      message: 'Proceed?',
      schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
    });
    return `${ctx.principal!.subject} said ${reply.action === 'accept' ? String(reply.content?.answer) : reply.action}`;
  }
}

@Controller('health')
class HealthController {
  @Get()
  health(): { ok: boolean } {
    return { ok: true };
  }
}

@Module({ providers: [PrincipalGuard, WhoAmITool, CreateIssueTool, AskTool], controllers: [HealthController] })
class ToolsModule {}

function appModule(options: Partial<ToolwrightModuleOptions>): Function {
  @Module({
    imports: [
      ToolsModule,
      ToolwrightModule.forRootAsync({
        // The verifier and the issuer come from the application's configuration at start.
        useFactory: async () => ({
          name: 'nest-auth',
          version: '1.0.0',
          transport: 'http' as const,
          auth: {
            verifier: jwtVerifier({ issuer: provider.issuer }),
            issuer: provider.issuer,
            requiredScopes: ['mcp'],
          },
          ...options,
        }),
      }),
    ],
  })
  class AuthApp {}
  return AuthApp;
}

async function listening(
  adapter: 'express' | 'fastify',
  root: Function,
): Promise<{ app: INestApplication; port: number; url: string }> {
  const app =
    adapter === 'fastify'
      ? await NestFactory.create(root as never, new FastifyAdapter(), { logger: false })
      : await NestFactory.create(root as never, { logger: false });
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as { port: number }).port;
  return { app, port, url: `http://127.0.0.1:${port}/mcp` };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A raw 2026-07-28 `tools/call` with a bearer token; resolves its result (without the server identity). */
async function modernCall(
  url: string,
  token: string,
  id: number,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const body = {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { arguments: {}, ...params, _meta: envelope({ elicitation: { form: {} } }) },
  };
  const headers = {
    ...bearer(token),
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': MODERN,
    'mcp-method': 'tools/call',
    'mcp-name': String(params.name),
  };
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  const messages = res.headers.get('content-type')?.startsWith('text/event-stream')
    ? sseMessages(text)
    : [JSON.parse(text) as unknown];
  return withoutServerInfo(resultOf({ status: res.status, type: res.headers.get('content-type'), messages }));
}
const post = (port: number, headers: Record<string, string>, body = INITIALIZE) =>
  rawRequest(port, { headers: { ...POST_HEADERS, ...headers }, body, path: '/mcp' });

function assertRefusal(res: RawResponse, status: number, challenge: string, body: object): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.headers['www-authenticate'], challenge);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(res.text), body);
}

for (const adapter of ['express', 'fastify'] as const) {
  test(
    `auth on ${adapter}: metadata, 401, 403, principals in tools and guards, @Scopes, sessions bound to their principal, both eras`,
    TIMEOUT,
    async (t) => {
      const { app, port, url } = await listening(adapter, appModule({}));
      const metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
      const token = (client: 'alice' | 'bob', scope: string) =>
        provider.token(provider.clients[client], { resource: url, scope });
      try {
        await t.test(
          "the protected resource metadata is served on the application's server, at both well-known paths",
          async () => {
            for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
              const res = await rawRequest(port, { method: 'GET', path });
              assert.equal(res.status, 200, path);
              assert.deepEqual(JSON.parse(res.text), {
                resource: url,
                authorization_servers: [provider.issuer],
                scopes_supported: ['mcp', 'issues:write'],
                bearer_methods_supported: ['header'],
              });
            }
          },
        );

        await t.test(
          "no token: 401 with the challenge naming the metadata and the scope; the application's own routes need none",
          async () => {
            const expected = {
              error: 'unauthorized',
              error_description: 'Authorization required: send an access token as Authorization: Bearer <token>',
            };
            assertRefusal(
              await post(port, {}),
              401,
              `Bearer scope="mcp", resource_metadata="${metadataUrl}"`,
              expected,
            );
            const health = await rawRequest(port, { method: 'GET', path: '/health' });
            assert.deepEqual([health.status, JSON.parse(health.text)], [200, { ok: true }]);
          },
        );

        await t.test("a token without the server's scope: 403 insufficient_scope", async () => {
          assertRefusal(
            await post(port, bearer(await token('alice', 'issues:read'))),
            403,
            `Bearer error="insufficient_scope", error_description="Insufficient scope", scope="mcp", resource_metadata="${metadataUrl}"`,
            {
              error: 'insufficient_scope',
              error_description: 'Insufficient scope',
            },
          );
        });

        for (const kind of ERA_CLIENT_KINDS) {
          await t.test(`a valid token (${kind}): the tool and the Nest guard see the principal`, async () => {
            guardSaw.length = 0;
            const client = await connectEraClient(kind, {
              url: new URL(url),
              headers: bearer(await token('alice', 'mcp issues:read')),
            });
            try {
              assert.deepEqual(await client.listToolNames(), ['whoami', 'create_issue', 'ask']);
              assert.deepEqual(await client.call('whoami'), {
                content: [{ type: 'text', text: 'alice via alice with mcp issues:read' }],
              });
              assert.deepEqual(guardSaw, ['alice']);
            } finally {
              await client.close();
            }
          });
        }

        await t.test(
          "@Scopes: a call without the tool's scope is 403 before the tool runs; with it, the tool runs",
          async () => {
            const reader = await token('alice', 'mcp issues:read');
            const call = JSON.stringify({
              jsonrpc: '2.0',
              id: 7,
              method: 'tools/call',
              params: { name: 'create_issue', arguments: { title: 'x' } },
            });
            const init = await post(port, bearer(reader));
            const session = {
              'mcp-session-id': init.headers['mcp-session-id'] as string,
              'mcp-protocol-version': '2025-11-25',
            };
            const description = 'Insufficient scope: tool \\"create_issue\\" needs issues:write';
            assertRefusal(
              await post(port, { ...bearer(reader), ...session }, call),
              403,
              `Bearer error="insufficient_scope", error_description="${description}", scope="mcp issues:write", resource_metadata="${metadataUrl}"`,
              {
                error: 'insufficient_scope',
                error_description: 'Insufficient scope: tool "create_issue" needs issues:write',
              },
            );
            assert.deepEqual(created, []);
            const allowed = await post(port, { ...bearer(await token('alice', 'mcp issues:write')), ...session }, call);
            assert.deepEqual(answerMessages(allowed), [
              { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'created x' }] } },
            ]);
            assert.deepEqual(created.splice(0), ['x']);
          },
        );

        await t.test(
          "a session is bound to its principal: another principal's token for it is 404 Session not found",
          async () => {
            const alice = await token('alice', 'mcp');
            const init = await post(port, bearer(alice));
            const session = {
              'mcp-session-id': init.headers['mcp-session-id'] as string,
              'mcp-protocol-version': '2025-11-25',
            };
            const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
            const refused = await post(port, { ...bearer(await token('bob', 'mcp')), ...session }, list);
            assert.equal(refused.status, 404);
            assert.deepEqual(JSON.parse(refused.text), {
              jsonrpc: '2.0',
              error: { code: -32001, message: 'Session not found' },
              id: null,
            });
            const again = await post(port, { ...bearer(await token('alice', 'mcp')), ...session }, list);
            assert.deepEqual(
              (answerMessages(again)[0] as { result: { tools: { name: string }[] } }).result.tools.map(
                (tool) => tool.name,
              ),
              ['whoami', 'create_issue', 'ask'],
            );
          },
        );

        await t.test(
          "a parked 2026-era call is bound to its principal: another principal's retry is stale, its own resumes it",
          async () => {
            const alice = await token('alice', 'mcp');
            const first = await modernCall(url, alice, 1, { name: 'ask' });
            assert.equal(first.resultType, 'input_required');
            const retry = {
              name: 'ask',
              requestState: first.requestState,
              inputResponses: { elicit_1: { action: 'accept', content: { answer: 'yes' } } },
            };
            assert.deepEqual(await modernCall(url, await token('bob', 'mcp'), 2, retry), {
              content: [{ type: 'text', text: STALE_STATE_TEXT }],
              isError: true,
              resultType: 'complete',
            });
            assert.deepEqual(await modernCall(url, alice, 3, retry), {
              content: [{ type: 'text', text: 'alice said yes' }],
              resultType: 'complete',
            });
          },
        );
      } finally {
        await app.close();
      }
    },
  );
}

test(
  'auth: hideForbiddenTools leaves out the tools the token lacks scopes for; auth needs transport http',
  TIMEOUT,
  async () => {
    const { app, url } = await listening('express', appModule({ hideForbiddenTools: true }));
    try {
      const reader = await connectEraClient('sdk 2.x (2026-07-28)', {
        url: new URL(url),
        headers: bearer(await provider.token(provider.clients.alice, { resource: url, scope: 'mcp' })),
      });
      try {
        assert.deepEqual(await reader.listToolNames(), ['whoami', 'ask']);
      } finally {
        await reader.close();
      }
    } finally {
      await app.close();
    }
    assert.throws(
      () =>
        ToolwrightModule.forRoot({
          name: 'x',
          version: '1',
          transport: 'stdio',
          auth: { verifier: async () => ({}) as never, issuer: 'https://issuer.example' },
        }),
      {
        name: 'TypeError',
        message: `ToolwrightModule: "auth" needs transport 'http' (over stdio a local process trusts its parent)`,
      },
    );
    // The gate checks its options when the application starts, as serveHttp does.
    @Module({
      imports: [
        ToolsModule,
        ToolwrightModule.forRoot({
          name: 'x',
          version: '1',
          transport: 'http',
          auth: { verifier: jwtVerifier({ issuer: 'http://issuer.example' }), issuer: 'http://issuer.example' },
        }),
      ],
    })
    class InsecureIssuer {}
    const insecure = await NestFactory.create(InsecureIssuer, { logger: false, abortOnError: false });
    await assert.rejects(insecure.init(), {
      name: 'TypeError',
      message: 'auth.issuer "http://issuer.example": Issuer URL must be HTTPS (set allowInsecureIssuer only for tests)',
    });
    await insecure.close();
  },
);
