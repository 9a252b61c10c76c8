import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { helpText } from '../src/cli/args.js';
import { compile } from '../src/index.js';
import { formatDefinitions } from '../src/compiler/index.js';
import { CONFORMANCE_SAMPLE, REPO_ROOT, fixture } from './support/cli-paths.js';
import { jsonParseMessage, runCliCaptured } from './support/cli-io.js';

// The CLI's list and call commands, run in process (the same `runCli` the bin runs) against
// compiled fixture modules. `call` goes through the real MCP path (server + SDK client over an
// in-memory transport pair).

/** A fixture's path as a user would type it, relative to the repository root. */
const at = (name: string): string => relative(REPO_ROOT, fixture(name));
const SAMPLE = relative(REPO_ROOT, CONFORMANCE_SAMPLE);

describe('cli list', () => {
  it('prints the exact MCP definitions of the exported @Tool classes, in export-name order', async () => {
    const run = await runCliCaptured(['list', at('decorated'), '--json']);
    assert.deepEqual({ code: run.code, err: run.err }, { code: 0, err: '' });
    assert.deepEqual(JSON.parse(run.out), [
      {
        name: 'fail',
        description: 'Always fails.',
        inputSchema: { type: 'object', properties: {}, additionalProperties: false },
        _meta: { 'io.github.christopherdavenport.agenttool/tool': { replay: true } },
      },
      {
        name: 'greet',
        description: 'Greets someone by name.',
        inputSchema: {
          type: 'object',
          properties: { name: { type: 'string', maxLength: 40, description: 'Who to greet' } },
          required: ['name'],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
        _meta: { 'io.github.christopherdavenport.agenttool/tool': { replay: true, readOnly: true } },
      },
    ]);
  });

  it('keeps the order of a tools array and passes hand-built schemas through unchanged', async () => {
    const run = await runCliCaptured(['list', '--json', at('listed')]);
    assert.equal(run.code, 0, run.err);
    const definitions = JSON.parse(run.out) as Array<{ name: string; inputSchema: unknown }>;
    assert.deepEqual(
      definitions.map((d) => d.name),
      ['add', 'show'],
    );
    assert.deepEqual(definitions[0]!.inputSchema, {
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
  });

  it('prints the readable listing of formatDefinitions without --json', async () => {
    const run = await runCliCaptured(['list', at('decorated')]);
    const { Fail, Greet } = await import(pathToFileURL(fixture('decorated')).href);
    assert.deepEqual(run, { code: 0, out: formatDefinitions(compile([Fail, Greet])), err: '' });
  });
});

describe('cli call', () => {
  it('prints the text of a result and exits 0', async () => {
    assert.deepEqual(await runCliCaptured(['call', at('decorated'), 'greet', '{"name":"Ada"}']), {
      code: 0,
      out: 'Hello, Ada!\n',
      err: '',
    });
  });

  it('prints the raw CallToolResult with --json', async () => {
    const run = await runCliCaptured(['call', at('listed'), 'add', '{"a":2,"b":40}', '--json']);
    assert.deepEqual({ code: run.code, err: run.err }, { code: 0, err: '' });
    assert.deepEqual(JSON.parse(run.out), { content: [{ type: 'text', text: '42' }] });
  });

  it('shows non-text parts as one bracketed line each', async () => {
    const run = await runCliCaptured(['call', at('listed'), 'show']);
    assert.deepEqual(run, {
      code: 0,
      out: 'parts:\n[image image/png, 4 bytes base64]\n[resource memo://1 (text/plain)]\nremember\n',
      err: '',
    });
  });

  it('prints an error result on stderr and exits 1', async () => {
    assert.deepEqual(await runCliCaptured(['call', at('decorated'), 'fail']), {
      code: 1,
      out: '',
      err: 'no luck today\n',
    });
    const json = await runCliCaptured(['call', at('decorated'), 'fail', '--json']);
    assert.equal(json.code, 1);
    assert.deepEqual(JSON.parse(json.out), { content: [{ type: 'text', text: 'no luck today' }], isError: true });
  });

  it('reports invalid arguments as an error result naming every problem', async () => {
    assert.deepEqual(await runCliCaptured(['call', at('decorated'), 'greet', '{"name":7,"extra":1}']), {
      code: 1,
      out: '',
      err: 'invalid arguments: /: must NOT have additional property "extra"; /name: must be string\n',
    });
  });

  it('shows log messages and progress on stderr as they arrive', async () => {
    const logged = await runCliCaptured(['call', SAMPLE, 'test_tool_with_logging']);
    assert.deepEqual(logged, {
      code: 0,
      out: 'Tool with logging executed successfully\n',
      err: '[info] Tool execution started\n[info] Tool processing data\n[info] Tool execution completed\n',
    });
    const progressed = await runCliCaptured(['call', SAMPLE, 'test_tool_with_progress']);
    assert.deepEqual(progressed, {
      code: 0,
      out: 'Tool with progress executed successfully\n',
      err: '[progress 0/100]\n[progress 50/100]\n[progress 100/100]\n',
    });
  });
});

describe('cli list of resources and prompts', () => {
  it('lists a module that serves only a resource and a prompt, readable and as the exact MCP definitions', async () => {
    assert.deepEqual(await runCliCaptured(['list', at('features-only')]), {
      code: 0,
      out: 'resources:\n  notes://today today_notes "Notes" (text/markdown)\n\nprompts:\n  summary — Summarises a topic\n    topic* — What to summarise\n',
      err: '',
    });
    const run = await runCliCaptured(['list', at('features-only'), '--json']);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(JSON.parse(run.out), {
      tools: [],
      resources: [{ uri: 'notes://today', name: 'today_notes', title: 'Notes', mimeType: 'text/markdown' }],
      resourceTemplates: [],
      prompts: [
        {
          name: 'summary',
          description: 'Summarises a topic',
          arguments: [{ name: 'topic', description: 'What to summarise', required: true }],
        },
      ],
    });
  });

  it('lists the tools, then the resources, templates and prompts of the conformance sample', async () => {
    const run = await runCliCaptured(['list', SAMPLE]);
    assert.equal(run.code, 0, run.err);
    const tail = run.out.slice(run.out.indexOf('\nresources:\n') + 1);
    assert.equal(
      tail,
      [
        'resources:',
        '  test://static-text static_text (text/plain) — A fixed text resource.',
        '  test://static-binary static_binary (image/png) — A fixed binary resource: a 1x1 red PNG.',
        '  test://watched-resource watched_resource (text/plain) — A resource clients may subscribe to.',
        '',
        'resource templates:',
        '  test://template/{id}/data template_data (application/json) — JSON data for any id.',
        '    variables: id; completes',
        '',
        'prompts:',
        '  test_simple_prompt — A prompt without arguments.',
        '  test_prompt_with_arguments — A prompt with two arguments.',
        '    arg1* — First test argument',
        '    arg2* — Second test argument',
        '    completes',
        '  test_prompt_with_embedded_resource — A prompt that embeds a resource.',
        '    resourceUri* — URI of the resource to embed',
        '  test_prompt_with_image — A prompt with an image.',
        '  test_input_required_result_prompt — A prompt that asks the user for context first (an input round in 2026-07-28).',
        '',
      ].join('\n'),
    );
  });

  it('names a bad resources export and the problems of a prompt class (exit 2)', async () => {
    assert.deepEqual(await runCliCaptured(['list', at('bad-features')]), {
      code: 2,
      out: '',
      err: `toolwright: module "${at('bad-features')}": its "resources" export must be an array or a function returning one, got a class (wrap it in an array)\n`,
    });
    assert.deepEqual(await runCliCaptured(['serve', at('bad-prompt')]), {
      code: 2,
      out: '',
      err: `toolwright: module "${at('bad-prompt')}": 1 problem in the prompts:\n  - [missing-description] class BlankPrompt: @Prompt() has a blank description: tell the user what the prompt is for in @Prompt({ description: '...' })\n`,
    });
  });
});

describe('cli errors', () => {
  it('names a missing module, a failing module, a module without tools and a bad tools export (exit 2)', async () => {
    assert.deepEqual(await runCliCaptured(['list', 'no/such/module.js']), {
      code: 2,
      out: '',
      err: 'toolwright: cannot load module "no/such/module.js": file not found\n',
    });
    assert.deepEqual(await runCliCaptured(['list', at('throws')]), {
      code: 2,
      out: '',
      err: `toolwright: cannot load module "${at('throws')}": fixture failed to load\n`,
    });
    assert.deepEqual(await runCliCaptured(['list', at('no-tools')]), {
      code: 2,
      out: '',
      err: `toolwright: module "${at('no-tools')}" exports no tools: export classes decorated with @Tool, or a "tools" array of tool classes, instances or contract tools (resources and prompts: @StaticResource, @ResourceTemplate and @Prompt classes, or "resources" and "prompts" arrays)\n`,
    });
    assert.deepEqual(await runCliCaptured(['list', at('bad-list')]), {
      code: 2,
      out: '',
      err: `toolwright: module "${at('bad-list')}": its "tools" export must be an array or a function returning one, got a string\n`,
    });
  });

  it('calls a tools() function once to build the tools, and names its failures (exit 2)', async () => {
    assert.deepEqual(await runCliCaptured(['call', at('factory'), 'salute']), { code: 0, out: 'Ahoy!\n', err: '' });
    assert.deepEqual(await runCliCaptured(['list', at('failing-factory')]), {
      code: 2,
      out: '',
      err: `toolwright: module "${at('failing-factory')}": its tools() function failed: SALUTE_GREETING is not set\n`,
    });
    assert.deepEqual(await runCliCaptured(['list', at('odd-factory')]), {
      code: 2,
      out: '',
      err: `toolwright: module "${at('odd-factory')}": its tools() function must return an array, got an object\n`,
    });
  });

  it('lists every compile problem of a module (exit 2)', async () => {
    const run = await runCliCaptured(['call', at('invalid'), 'broken']);
    assert.deepEqual(run, {
      code: 2,
      out: '',
      err: `toolwright: module "${at('invalid')}": 1 problem in the tool contract:\n  - [missing-execute] class Broken has no execute() method: add execute(args, ctx) returning the tool's output\n`,
    });
  });

  it('names an unknown tool with the tools the module has (exit 2)', async () => {
    assert.deepEqual(await runCliCaptured(['call', at('decorated'), 'grete', '{}']), {
      code: 2,
      out: '',
      err: `toolwright: module "${at('decorated')}" has no tool "grete" (tools: fail, greet)\n`,
    });
  });

  it('answers usage mistakes with a hint to --help (exit 2), and --help itself with exit 0', async () => {
    assert.deepEqual(await runCliCaptured(['call', at('decorated'), 'greet', '{name}']), {
      code: 2,
      out: '',
      err: `toolwright: arguments are not valid JSON: ${jsonParseMessage('{name}')}\nRun "toolwright --help" for usage.\n`,
    });
    assert.deepEqual(await runCliCaptured(['publish']), {
      code: 2,
      out: '',
      err: 'toolwright: unknown command "publish" (commands: serve, list, lint, call, proxy, init, help)\nRun "toolwright --help" for usage.\n',
    });
    assert.deepEqual(await runCliCaptured(['--help']), { code: 0, out: helpText(), err: '' });
    assert.deepEqual(await runCliCaptured(['call', '--help']), { code: 0, out: helpText('call'), err: '' });
  });
});
