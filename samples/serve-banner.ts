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
 * 2.x SDK client code, which `test/cli-sample-serve.test.ts` runs). It only formats; it never
 * writes.
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
    '  MCP Inspector (2.12.0, a development dependency here), headless:',
    `    npx mcp-inspector --cli ${first.url} --method tools/list`,
    `    npx mcp-inspector --cli ${first.url} --method tools/call --tool-name list_directory --tool-arg path=.`,
    '  MCP Inspector UI: run `npx mcp-inspector`, choose "Streamable HTTP" and enter the URL above.',
    '',
    '  TypeScript or JavaScript (@modelcontextprotocol/client 2.x, either protocol era):',
    "    import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';",
    "    const client = new Client({ name: 'my-client', version: '1.0.0' });",
    `    await client.connect(new StreamableHTTPClientTransport(new URL('${first.url}')));`,
    '    console.log((await client.listTools()).tools.map((tool) => tool.name));',
    '    await client.close();',
    '',
    '  The toolwright CLI serves any module of tool classes the same way:',
    '    npx toolwright serve dist/samples/conformance/index.js --http 3001',
    '',
  );
  return lines.join('\n');
}
