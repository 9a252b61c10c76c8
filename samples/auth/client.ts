import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** Options of `callWithClientCredentials`. */
export interface ClientCredentialsCall {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
  readonly url: string;
  /** The issuer the credentials belong to: they are never sent to another authorization server. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The scopes to ask for, space-separated. */
  readonly scope: string;
  readonly tool: string;
  readonly args?: Record<string, unknown>;
}

/**
 * Calls one tool on an OAuth-protected MCP server the way a machine client does, with the SDK
 * client's own OAuth support: the first request gets `401` naming the protected resource
 * metadata; the client reads it, discovers the authorization server, obtains a token by the
 * client-credentials grant for this resource (RFC 8707 `resource`) and retries. Resolves the
 * tool's text and the names `tools/list` showed.
 */
export async function callWithClientCredentials(
  call: ClientCredentialsCall,
): Promise<{ listed: string[]; text: string }> {
  const authProvider = new ClientCredentialsProvider({
    clientId: call.clientId,
    clientSecret: call.clientSecret,
    expectedIssuer: call.issuer,
    scope: call.scope,
  });
  const client = new Client({ name: 'toolwright-sample-auth-client', version: '0.1.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(call.url), { authProvider }));
  try {
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    const result = await client.callTool({ name: call.tool, arguments: call.args ?? {} });
    const text = (result.content as Array<{ type: string; text?: string }>)
      .map((part) => part.text ?? `[${part.type}]`)
      .join('\n');
    return { listed, text };
  } finally {
    await client.close();
  }
}
