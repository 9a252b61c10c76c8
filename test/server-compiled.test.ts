import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Description, Facts, ReadOnly, Tool, compile, type CallContext } from '../src/index.js';
import { FACTS_METHOD, TOOL_META_KEY } from '../src/mcp/server/index.js';
import { serve } from './support/server-harness.js';

test('a compiled decorated tool is listed, called, validated once and asked for facts over MCP', async () => {
  const runs: unknown[] = [];
  class ReadArgs {
    @Description('Path relative to the workspace root')
    @IsString()
    @MaxLength(64)
    path!: string;

    @IsOptional()
    @IsInt()
    @Min(1)
    @Max(100)
    limit?: number;
  }

  @Tool({ name: 'read_file', description: 'Read a text file', args: ReadArgs })
  @ReadOnly()
  class ReadFile {
    execute(args: ReadArgs, ctx: CallContext) {
      runs.push({ isDto: args instanceof ReadArgs, path: args.path, limit: args.limit, session: ctx.session });
      return `contents of ${args.path}`;
    }

    @Facts()
    facts(args: ReadArgs) {
      return { calls: [{ tool: 'read', args: { path: args.path } }] };
    }
  }

  const tools = compile([ReadFile]);
  const { client, close } = await serve(tools);
  try {
    const [listed] = (await client.listTools()).tools;
    assert.deepEqual(listed, {
      name: 'read_file',
      description: 'Read a text file',
      inputSchema: tools[0]!.parameters,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      _meta: { [TOOL_META_KEY]: { facts: true, replay: true, readOnly: true } },
    });
    assert.deepEqual(listed!.inputSchema.required, ['path']);

    assert.deepEqual(await client.callTool({ name: 'read_file', arguments: { path: 'a.txt', limit: 5 } }), {
      content: [{ type: 'text', text: 'contents of a.txt' }],
    });
    assert.deepEqual(runs, [{ isDto: true, path: 'a.txt', limit: 5, session: { id: '', transport: 'memory' } }]);

    assert.deepEqual(await client.callTool({ name: 'read_file', arguments: { path: 7, limit: 0 } }), {
      content: [{ type: 'text', text: 'invalid arguments: /path: must be string; /limit: must be >= 1' }],
      isError: true,
    });
    assert.deepEqual(runs, [{ isDto: true, path: 'a.txt', limit: 5, session: { id: '', transport: 'memory' } }]);

    assert.deepEqual(
      await client.request(
        {
          method: FACTS_METHOD,
          params: {
            calls: [
              { name: 'read_file', arguments: { path: 'b.txt' } },
              { name: 'read_file', arguments: { limit: 'x' } },
            ],
          },
        } as never,
        ResultSchema,
      ),
      {
        results: [
          { facts: { calls: [{ tool: 'read', args: { path: 'b.txt' } }] }, replay: 'unknown' },
          {
            error: 'invalid arguments: /: must have required property "path"; /limit: must be integer or null',
            replay: 'unknown',
          },
        ],
      },
    );
    assert.deepEqual(runs, [{ isDto: true, path: 'a.txt', limit: 5, session: { id: '', transport: 'memory' } }]);
  } finally {
    await close();
  }
});
