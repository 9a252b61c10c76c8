// A 2.x SDK `McpServer` over stdio, serving both protocol eras (`serveStdio` picks the era per
// connection), whose results carry `_meta` of their own beside a record. Run as
// `node consume-meta-server.js`. Tools: traced {text} (a result with `_meta`: a trace object,
// the record in the middle, a last string); refused (an `isError` result with `_meta` and a
// record); confirm {greeting} (asks a name: `input_required` in the 2026-07-28 era, pushed
// `elicitation/create` in the 2025 era); add_tool (registers `extra`, so the server announces
// a changed tool list: a notification in the 2025 era, on the listen stream in the 2026 era).
import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

/** The `_meta` of `traced`'s result, exactly as sent (key order included). */
export const TRACED_META = {
  'example.com/trace': { id: 'abc', spans: [1, 2.5, 'three'], nested: { ok: true, none: null } },
  'io.github.christopherdavenport.agenttool/record': { ns: 'upstream', data: '{"n":1,"list":[1,2]}' },
  'example.com/z': 'last',
};

/** The `_meta` of `refused`'s `isError` result. */
export const REFUSED_META = {
  'io.github.christopherdavenport.agenttool/record': { ns: 'upstream', data: '{"why":"no"}' },
  'example.com/trace': { id: 'refused' },
};

export function metaServer(): McpServer {
  const server = new McpServer({ name: 'meta', version: '1.0.0' });
  server.registerTool(
    'traced',
    {
      description: 'Echoes with _meta',
      inputSchema: z.object({ text: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({
      content: [{ type: 'text', text: `traced: ${text}` }],
      _meta: TRACED_META,
    }),
  );
  server.registerTool(
    'refused',
    { description: 'Fails with _meta', annotations: { readOnlyHint: true } },
    async () => ({
      content: [{ type: 'text', text: 'refused: not today' }],
      isError: true,
      _meta: REFUSED_META,
    }),
  );
  server.registerTool(
    'confirm',
    {
      description: 'Asks for a name, then says it',
      inputSchema: z.object({ greeting: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async ({ greeting }, ctx) => {
      const answer = ctx.mcpReq.inputResponses?.name;
      if (answer === undefined) {
        return inputRequired({
          inputRequests: {
            name: inputRequired.elicit({
              message: 'Name?',
              requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
            }),
          },
        });
      }
      return { content: [{ type: 'text', text: `${greeting} ${JSON.stringify(answer)}` }] };
    },
  );
  server.registerTool('add_tool', { description: 'Registers the tool "extra"' }, async () => {
    server.registerTool('extra', { description: 'Added later' }, async () => ({
      content: [{ type: 'text', text: 'extra ran' }],
    }));
    return { content: [{ type: 'text', text: 'added' }] };
  });
  return server;
}

if (process.argv[1]?.endsWith('consume-meta-server.js')) serveStdio(metaServer);
