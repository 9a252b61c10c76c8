import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { compile, serveHttp } from '../src/index.js';
import { createPolicy } from '../src/runtime/index.js';
import { FILE_TOOL_CLASSES } from '../samples/files/index.js';
import { Shell, ReadFile as ShellReadFile, WriteFile as ShellWriteFile } from '../samples/shell/index.js';
import { GreetTool } from '../samples/greet/greet.js';
import { Echo } from '../samples/conformance/index.js';
import { getToolOptions } from '../src/decorators/metadata.js';
import { arbitraryOf, wrongValueFor } from './support/schema-arbitrary.js';
import { StdioChild } from './support/transport-child.js';
import { rawRequest, POST_HEADERS, initSession } from './support/transport-http-probe.js';
import { robustTools } from './support/robust-tools.js';

/** One seed per run, printed, and taken from FUZZ_SEED when set, so a failure can be replayed. */
const SEED = process.env.FUZZ_SEED === undefined ? Date.now() % 2_147_483_647 : Number(process.env.FUZZ_SEED);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const replay = `(replay with FUZZ_SEED=${SEED})`;

type Class = new (...args: never[]) => object;
type After = { after(fn: () => Promise<void>): void; diagnostic(message: string): void };

/** What the probe instance of a sample class saw: the DTO `execute` received. */
const seen: unknown[] = [];

/** An instance of `cls` whose `execute` records the DTO it gets and answers `ok`. */
function probeOf(cls: Class): object {
  const probe = Object.create(cls.prototype) as { execute: (dto: unknown) => string };
  probe.execute = (dto) => {
    seen.push(dto);
    return 'ok';
  };
  return probe;
}

/** The DTO class of a tool class: `@Tool({ args })`, else `execute`'s first parameter type as tsc emitted it. */
function argsClassOf(cls: Class): Class {
  const declared = getToolOptions(cls)?.args as Class | undefined;
  const types = Reflect.getMetadata('design:paramtypes', cls.prototype, 'execute') as Class[] | undefined;
  const found = declared ?? types?.[0];
  assert.ok(found !== undefined, `${cls.name}: no args class`);
  return found;
}

const SAMPLE_SETS: ReadonlyArray<readonly [string, readonly Class[]]> = [
  ['files', FILE_TOOL_CLASSES as unknown as Class[]],
  ['shell', [Shell, ShellWriteFile, ShellReadFile] as unknown as Class[]],
  ['greet and echo', [GreetTool, Echo] as unknown as Class[]],
];

/**
 * Serves `classes` (probe instances, every permission allowed) over real HTTP on loopback and
 * connects an SDK client.
 */
async function serveProbes(
  t: After,
  classes: readonly Class[],
): Promise<{ client: Client; tools: Map<string, Class> }> {
  const compiled = compile([...classes], { resolve: (cls) => probeOf(cls as Class) });
  const handle = await serveHttp({ name: 'fuzz', version: '1.0.0' }, compiled, {
    policy: createPolicy({ rules: [{ effect: 'allow' }] }),
  });
  t.after(() => handle.close());
  const client = new Client({ name: 'fuzz', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
  t.after(() => client.close());
  const byName = new Map<string, Class>();
  compiled.forEach((tool, index) => byName.set(tool.name, classes[index]!));
  return { client, tools: byName };
}

type Schema = {
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  items?: Schema;
  default?: unknown;
  type?: unknown;
};

/**
 * Asserts that what `execute` received carries every value the client sent: equal leaves, an
 * object for an object (checked key by key, its nested schema followed through `anyOf`), an
 * array element by element, and `null` as null, undefined or the property's default.
 */
function assertArrived(received: unknown, sent: unknown, schema: Schema | undefined, where: string): void {
  if (sent === null) {
    assert.ok(
      received === null || received === undefined || received === schema?.default,
      `${where}: null arrives as null, undefined or the default (${JSON.stringify(schema?.default)}), got ${JSON.stringify(received)}`,
    );
    return;
  }
  const objectSchema =
    schema?.properties !== undefined ? schema : schema?.anyOf?.find((branch) => branch.properties !== undefined);
  if (Array.isArray(sent)) {
    assert.ok(Array.isArray(received), `${where}: an array arrives as an array`);
    assert.equal(received.length, sent.length, `${where}: length`);
    sent.forEach((item, index) =>
      assertArrived(
        received[index],
        item,
        schema?.items ?? schema?.anyOf?.find((b) => b.items !== undefined)?.items,
        `${where}[${index}]`,
      ),
    );
    return;
  }
  if (typeof sent === 'object') {
    assert.ok(
      typeof received === 'object' && received !== null,
      `${where}: an object arrives as an object, got ${JSON.stringify(received)}`,
    );
    for (const [key, value] of Object.entries(sent))
      assertArrived(
        (received as Record<string, unknown>)[key],
        value,
        objectSchema?.properties?.[key],
        `${where}.${key}`,
      );
    return;
  }
  assert.deepEqual(received, sent, where);
}

/** The assertion that failed inside a property, for the report. */
function causeOf(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `cause: ${cause.message}` : '';
}

const textOf = (result: unknown): string => (result as { content: Array<{ text?: string }> }).content[0]?.text ?? '';

for (const [setName, classes] of SAMPLE_SETS) {
  test(
    `robust fuzz: ${setName}: valid arguments from the schema reach execute as DTOs of the right class with the values sent`,
    { timeout: 120_000 },
    async (t) => {
      t.diagnostic(`fuzz seed ${SEED} ${replay}`);
      const { client, tools } = await serveProbes(t, classes);
      for (const listed of (await client.listTools()).tools) {
        const argsClass = argsClassOf(tools.get(listed.name)!);
        await fc
          .assert(
            fc.asyncProperty(
              arbitraryOf(listed.inputSchema as Record<string, unknown>) as fc.Arbitrary<Record<string, unknown>>,
              async (args) => {
                seen.length = 0;
                const result = await client.callTool({ name: listed.name, arguments: args });
                // The probe answers "ok"; a tool with an output schema then fails the output check, after execute ran.
                const { _meta, ...shown } = result;
                const expected =
                  listed.outputSchema === undefined
                    ? { content: [{ type: 'text', text: 'ok' }] }
                    : {
                        content: [
                          {
                            type: 'text',
                            text: 'structured content does not match the output schema: the tool returned no structured content',
                          },
                        ],
                        isError: true,
                      };
                assert.deepEqual(
                  shown,
                  expected,
                  `${listed.name} ${JSON.stringify(args)} -> ${JSON.stringify(result)}`,
                );
                assert.equal(seen.length, 1);
                const dto = seen[0] as Record<string, unknown>;
                assert.ok(dto instanceof argsClass, `${listed.name}: the DTO is a ${argsClass.name}`);
                assertArrived(dto, args, listed.inputSchema as Schema, listed.name);
              },
            ),
            { seed: SEED, numRuns: RUNS, errorWithCause: true } as fc.Parameters<unknown>,
          )
          .catch((error: Error) => {
            throw new Error(`${error.message}\n${causeOf(error)}\n${replay}`);
          });
      }
    },
  );

  test(
    `robust fuzz: ${setName}: mutated arguments are isError naming the path, and the tool never runs`,
    { timeout: 120_000 },
    async (t) => {
      t.diagnostic(`fuzz seed ${SEED} ${replay}`);
      const { client } = await serveProbes(t, classes);
      const before = Object.getOwnPropertyNames(Object.prototype).sort();
      for (const listed of (await client.listTools()).tools) {
        const schema = listed.inputSchema as {
          properties?: Record<string, Record<string, unknown>>;
          required?: string[];
        };
        const properties = Object.entries(schema.properties ?? {});
        const required = schema.required ?? [];
        const mutation = fc.oneof(
          fc.constant({ kind: 'unknown-key' as const, key: 'extra' }),
          fc.constant({ kind: 'unknown-key' as const, key: '__proto__' }),
          fc.constant({ kind: 'unknown-key' as const, key: 'constructor' }),
          ...(required.length > 0
            ? [fc.constantFrom(...required).map((key) => ({ kind: 'missing' as const, key }))]
            : []),
          ...(properties.some(([, s]) => wrongValueFor(s) !== undefined)
            ? [
                fc
                  .constantFrom(...properties.filter(([, s]) => wrongValueFor(s) !== undefined).map(([key]) => key))
                  .map((key) => ({ kind: 'wrong-type' as const, key })),
              ]
            : []),
        );
        await fc
          .assert(
            fc.asyncProperty(
              arbitraryOf(listed.inputSchema as Record<string, unknown>) as fc.Arbitrary<Record<string, unknown>>,
              mutation,
              async (valid, change) => {
                seen.length = 0;
                let args: Record<string, unknown>;
                let expected: string;
                if (change.kind === 'unknown-key') {
                  args = JSON.parse(
                    JSON.stringify(valid).replace(
                      /^\{/,
                      `{${JSON.stringify(change.key)}:{"polluted":true}${Object.keys(valid).length > 0 ? ',' : ''}`,
                    ),
                  ) as Record<string, unknown>;
                  expected = `/: must NOT have additional property ${JSON.stringify(change.key)}`;
                } else if (change.kind === 'missing') {
                  args = { ...valid };
                  delete args[change.key];
                  expected = `/: must have required property ${JSON.stringify(change.key)}`;
                } else {
                  const wrong = wrongValueFor(schema.properties![change.key]!)!;
                  args = { ...valid, [change.key]: wrong.value };
                  expected = `/${change.key}: `;
                }
                const result = await client.callTool({ name: listed.name, arguments: args });
                assert.equal(result.isError, true, `${listed.name} ${JSON.stringify(args)}`);
                const text = textOf(result);
                assert.ok(text.startsWith('invalid arguments: '), text);
                assert.ok(text.includes(expected), `${text} should name ${expected}`);
                assert.equal(seen.length, 0, 'the tool never runs');
              },
            ),
            { seed: SEED, numRuns: RUNS, errorWithCause: true } as fc.Parameters<unknown>,
          )
          .catch((error: Error) => {
            throw new Error(`${error.message}\n${causeOf(error)}\n${replay}`);
          });
      }
      assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), before, 'no prototype pollution');
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    },
  );
}

/** Lines of protocol garbage: random text, random JSON, and JSON-RPC-shaped messages with random parts. */
const garbageLine = fc.oneof(
  fc.string({ maxLength: 200, unit: 'binary' }).map((s) => s.replace(/[\r\n]/g, ' ')),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        jsonrpc: fc.constantFrom('2.0', '1.0', 2, null),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.constant({})),
        method: fc.constantFrom(
          'tools/call',
          'tools/list',
          'ping',
          'initialize',
          'logging/setLevel',
          'notifications/cancelled',
          'execution/facts',
          'nope',
          '__proto__',
        ),
        params: fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.record(
            {
              name: fc.constantFrom('echo', 'throw', 'counter', 'nope', '__proto__', 'constructor'),
              arguments: fc.jsonValue({ maxDepth: 3 }),
            },
            { requiredKeys: [] },
          ),
        ),
        result: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
);

test(
  'robust fuzz: protocol garbage over stdio is answered with JSON only; the server never crashes or hangs',
  { timeout: 180_000 },
  async (t) => {
    t.diagnostic(`fuzz seed ${SEED} ${replay}`);
    const child = new StdioChild({}, 'robust-fixture.js');
    t.after(() => child.kill());
    await child.waitForStderr('probe: ready');
    const lines = fc.sample(fc.array(garbageLine, { minLength: 20, maxLength: 20 }), {
      seed: SEED,
      numRuns: Math.max(5, RUNS),
    });
    let pings = 0;
    for (const batch of lines) {
      for (const line of batch) child.writeLine(line);
      pings++;
      const id = `ping-${pings}`;
      child.writeLine(JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }));
      const pong = await child.response(id).catch((error: Error) => {
        throw new Error(`${error.message} after ${JSON.stringify(batch).slice(0, 2000)}\n${replay}`);
      });
      assert.deepEqual(pong.result, {}, replay);
    }
    for (const line of child.lines) {
      const message = JSON.parse(line) as Record<string, unknown>;
      assert.equal(message.jsonrpc, '2.0', `${line} ${replay}`);
    }
    assert.equal(child.child.exitCode, null, `the server is alive ${replay}`);
    t.diagnostic(`${pings * 20} garbage lines, ${child.lines.length} answers`);
  },
);

test(
  'robust fuzz: protocol garbage over HTTP gets JSON (or SSE of JSON) with a proper status; the server serves on',
  { timeout: 180_000 },
  async (t) => {
    t.diagnostic(`fuzz seed ${SEED} ${replay}`);
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const handle = await serveHttp(
      { name: 'garbage', version: '1.0.0' },
      robustTools().filter((tool) => ['echo', 'throw', 'counter'].includes(tool.name)),
    );
    t.after(() => handle.close());
    const session = await initSession(handle.port);
    const headers = fc.record({
      accept: fc.oneof(
        { arbitrary: fc.constant(POST_HEADERS.accept!), weight: 6 },
        { arbitrary: fc.constantFrom('application/json', '*/*', ''), weight: 1 },
      ),
      'content-type': fc.oneof(
        { arbitrary: fc.constant('application/json'), weight: 6 },
        { arbitrary: fc.constantFrom('text/plain', ''), weight: 1 },
      ),
      session: fc.oneof(
        { arbitrary: fc.constant('good'), weight: 4 },
        { arbitrary: fc.constantFrom('none', 'bad'), weight: 1 },
      ),
      version: fc.oneof(
        { arbitrary: fc.constant('2025-06-18'), weight: 4 },
        { arbitrary: fc.constantFrom('1999-01-01', ''), weight: 1 },
      ),
    });
    const requests = fc.sample(
      fc.tuple(
        headers,
        fc.oneof(
          garbageLine,
          fc.array(garbageLine, { maxLength: 3 }).map((ls) => `[${ls.join(',')}]`),
        ),
      ),
      { seed: SEED, numRuns: Math.max(30, RUNS * 3) },
    );
    const statuses = new Map<number, number>();
    for (const [h, body] of requests) {
      const sent: Record<string, string> = {};
      if (h.accept !== '') sent.accept = h.accept;
      if (h['content-type'] !== '') sent['content-type'] = h['content-type'];
      if (h.session !== 'none') sent['mcp-session-id'] = h.session === 'good' ? session : 'no-such-session';
      if (h.version !== '') sent['mcp-protocol-version'] = h.version;
      const res = await rawRequest(handle.port, { headers: sent, body });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      assert.ok([200, 202, 400, 404, 406, 415].includes(res.status), `status ${res.status} for ${body} ${replay}`);
      const type = String(res.headers['content-type'] ?? '');
      if (res.status === 202) continue;
      if (type.startsWith('text/event-stream')) {
        for (const line of res.text.split('\n').filter((l) => l.startsWith('data: '))) JSON.parse(line.slice(6));
      } else {
        assert.ok(type.startsWith('application/json'), `content-type ${type} for ${body} ${replay}`);
        JSON.parse(res.text);
      }
    }
    t.diagnostic(`statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
    const client = new Client({ name: 'after', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    t.after(() => client.close());
    assert.deepEqual(await client.callTool({ name: 'echo', arguments: { text: 'still serving' } }), {
      content: [{ type: 'text', text: 'still serving' }],
    });
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), before, 'no prototype pollution');
  },
);
