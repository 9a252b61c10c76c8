/**
 * The auth sample: an issue tracker served over streamable HTTP as an OAuth 2.1 resource server.
 *
 *   node dist/samples/auth/main.js                 # starts a development authorization server too
 *   AUTH_ISSUER=https://login.example.com node dist/samples/auth/main.js
 *   node dist/samples/auth/main.js call <url> <issuer> <client-id> <client-secret> <scope> <tool> [json-args]
 *
 * Serving: `PORT` (default 3001; 0 for a free one), `AUTH_ISSUER` (the authorization server;
 * unset, a development provider is started on 127.0.0.1 and its client printed),
 * `AUTH_RESOURCE` (this server's public URL, the audience tokens must carry; default
 * `http://127.0.0.1:<port>/mcp`). Runs until Ctrl-C. `call` is the client: it obtains a token by
 * the client-credentials grant and calls one tool (see `callWithClientCredentials`).
 */
import { callWithClientCredentials } from './client.js';
import { DEV_CLIENT, startDevProvider } from './dev-provider.js';
import { serveIssues } from './server.js';

async function serve(): Promise<void> {
  const port = process.env.PORT === undefined ? 3001 : Number(process.env.PORT);
  const dev = process.env.AUTH_ISSUER === undefined ? await startDevProvider() : undefined;
  const issuer = process.env.AUTH_ISSUER ?? dev!.issuer;
  const handle = await serveIssues({
    issuer,
    port,
    ...(process.env.AUTH_RESOURCE !== undefined ? { resource: process.env.AUTH_RESOURCE } : {}),
  });
  const lines = [`issue tracker: ${handle.url} (tokens from ${issuer})`];
  if (dev !== undefined) {
    lines.push(
      `development authorization server: ${dev.issuer} (client ${DEV_CLIENT.clientId} / ${DEV_CLIENT.clientSecret})`,
    );
    lines.push(
      `try: node dist/samples/auth/main.js call ${handle.url} ${dev.issuer} ${DEV_CLIENT.clientId} ${DEV_CLIENT.clientSecret} "mcp issues:write" create_issue '{"title":"hello"}'`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = (): void => {
    void Promise.all([handle.close(), dev?.close()]).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function call(args: readonly string[]): Promise<void> {
  const [url, issuer, clientId, clientSecret, scope, tool, json] = args;
  if (tool === undefined)
    throw new Error('usage: main.js call <url> <issuer> <client-id> <client-secret> <scope> <tool> [json-args]');
  const outcome = await callWithClientCredentials({
    url: url!,
    issuer: issuer!,
    clientId: clientId!,
    clientSecret: clientSecret!,
    scope: scope!,
    tool,
    args: json === undefined ? {} : (JSON.parse(json) as Record<string, unknown>),
  });
  process.stdout.write(`listed: ${outcome.listed.join(', ')}\n${outcome.text}\n`);
}

const [command, ...rest] = process.argv.slice(2);
(command === 'call' ? call(rest) : serve()).catch((error: unknown) => {
  process.stderr.write(`auth sample: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
