/** One MCP endpoint the sample server offers. */
export interface SampleEndpoint {
  readonly name: string;
  readonly url: string;
  readonly tools: readonly string[];
  readonly about: string;
}

/**
 * The text `npm start` prints once the sample server listens: each endpoint with its tools, and
 * how to connect a client to it (the MCP Inspector, headless or with its UI, and a few lines of
 * SDK client code). It only formats; it never writes.
 */
export function sampleBanner(endpoints: readonly SampleEndpoint[]): string {
  const first = endpoints[0]!;
  const lines = ['toolwright samples, served over streamable HTTP (Ctrl-C stops):', ''];
  for (const endpoint of endpoints) {
    lines.push(
      `  ${endpoint.name.padEnd(6)} ${endpoint.url}`,
      `         ${endpoint.about}`,
      `         tools: ${endpoint.tools.join(', ')}`,
      '',
    );
  }
  lines.push(
    'Connect a client:',
    '',
    '  MCP Inspector, headless:',
    `    npx mcp-inspector --cli ${first.url} --method tools/list`,
    `    npx mcp-inspector --cli ${first.url} --method tools/call --tool-name list_directory --tool-arg path=.`,
    '  MCP Inspector UI: run `npx mcp-inspector`, choose "Streamable HTTP" and enter the URL above.',
    '',
    '  TypeScript (@modelcontextprotocol/sdk):',
    "    import { Client } from '@modelcontextprotocol/sdk/client/index.js';",
    "    import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';",
    "    const client = new Client({ name: 'my-client', version: '1.0.0' });",
    `    await client.connect(new StreamableHTTPClientTransport(new URL('${first.url}')));`,
    '    console.log((await client.listTools()).tools.map((tool) => tool.name));',
    '',
    '  The toolwright CLI serves any module of tool classes the same way:',
    '    node dist/src/cli/main.js serve dist/samples/conformance/index.js --http 3001',
    '',
  );
  return lines.join('\n');
}
