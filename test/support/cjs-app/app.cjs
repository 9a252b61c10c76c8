// A CommonJS app (as a NestJS app compiled to CommonJS is) that loads toolwright with require(),
// declares a tool with decorators applied by hand (as tsc's CommonJS output does), compiles it
// and calls it through the MCP path. It prints one JSON line for the test to read.
'use strict';
const tw = require('toolwright');
const { createServer } = require('toolwright/mcp');
const { IsString } = require('class-validator');

class ShoutArgs {}
IsString()(ShoutArgs.prototype, 'text');
Reflect.defineMetadata('design:type', String, ShoutArgs.prototype, 'text');

class ShoutTool {
  async execute(args) {
    return `${args.text.toUpperCase()}! (${args instanceof ShoutArgs ? 'a ShoutArgs' : 'not a ShoutArgs'})`;
  }
}
tw.Tool({ description: 'Shouts the text', args: ShoutArgs })(ShoutTool);

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js');

async function main() {
  const [tool] = tw.compile([ShoutTool]);
  const server = createServer({ name: 'cjs', version: '1.0.0' }, [tool]);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'cjs-client', version: '1.0.0' });
  await client.connect(clientSide);
  const result = await client.callTool({ name: 'shout', arguments: { text: 'hi' } });
  await client.close();
  process.stdout.write(
    JSON.stringify({ requireModule: process.features.require_module === true, name: tool.name, result }) + '\n',
  );
}
main().catch((error) => {
  process.stderr.write(String((error && error.stack) || error) + '\n');
  process.exit(1);
});
