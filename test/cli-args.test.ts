import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { helpText, parseArgs, parseCallArguments, parseHttpAddress, UsageError } from '../src/cli/args.js';
import { jsonParseMessage } from './support/cli-io.js';

function usageError(argv: string[]): string {
  try {
    parseArgs(argv);
  } catch (error) {
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
    return error.message;
  }
  assert.fail(`parseArgs(${JSON.stringify(argv)}) did not throw`);
}

describe('cli parseArgs', () => {
  it('reads serve with its defaults (stdio, stateful, no name or version)', () => {
    assert.deepEqual(parseArgs(['serve', 'dist/tools.js']), {
      kind: 'serve',
      module: 'dist/tools.js',
      stateless: false,
    });
  });

  it('reads serve with every option, in either flag form and any order', () => {
    assert.deepEqual(
      parseArgs(['serve', '--http', 'localhost:8080', 'tools.js', '--stateless', '--name=files', '--version', '2.0.0']),
      {
        kind: 'serve',
        module: 'tools.js',
        http: { host: 'localhost', port: 8080 },
        stateless: true,
        name: 'files',
        version: '2.0.0',
      },
    );
  });

  it('reads list and call, with and without --json', () => {
    assert.deepEqual(parseArgs(['list', 'm.js']), { kind: 'list', module: 'm.js', json: false });
    assert.deepEqual(parseArgs(['list', '--json', 'm.js']), { kind: 'list', module: 'm.js', json: true });
    assert.deepEqual(parseArgs(['call', 'm.js', 'echo']), {
      kind: 'call',
      module: 'm.js',
      tool: 'echo',
      args: {},
      json: false,
    });
    assert.deepEqual(parseArgs(['call', 'm.js', 'echo', '{"text":"hi","count":2}', '--json']), {
      kind: 'call',
      module: 'm.js',
      tool: 'echo',
      args: { text: 'hi', count: 2 },
      json: true,
    });
  });

  it('treats words after -- as positionals', () => {
    assert.deepEqual(parseArgs(['list', '--', '--odd-name.js']), {
      kind: 'list',
      module: '--odd-name.js',
      json: false,
    });
  });

  it('answers help and version in every spelling', () => {
    assert.deepEqual(parseArgs([]), { kind: 'help' });
    assert.deepEqual(parseArgs(['--help']), { kind: 'help' });
    assert.deepEqual(parseArgs(['-h']), { kind: 'help' });
    assert.deepEqual(parseArgs(['help']), { kind: 'help' });
    assert.deepEqual(parseArgs(['help', 'call']), { kind: 'help', topic: 'call' });
    assert.deepEqual(parseArgs(['serve', '--help']), { kind: 'help', topic: 'serve' });
    assert.deepEqual(parseArgs(['list', 'm.js', '-h']), { kind: 'help', topic: 'list' });
    assert.deepEqual(parseArgs(['--version']), { kind: 'version' });
  });

  it('names every mistake exactly', () => {
    assert.equal(
      usageError(['run', 'x.js']),
      'unknown command "run" (commands: serve, list, lint, call, proxy, init, help)',
    );
    assert.equal(
      usageError(['serve']),
      'serve is missing arguments; usage: toolwright serve <module> [--http [host:]port] [--stateless] [--name n] [--version v] [--profile p] [--ask]',
    );
    assert.equal(
      usageError(['list', 'a.js', 'b.js']),
      'list has too many arguments ("b.js"); usage: toolwright list <module> [--json] [--profile p] [--lint]',
    );
    assert.equal(
      usageError(['call', 'm.js']),
      "call is missing arguments; usage: toolwright call <module> <tool> ['<json arguments>'] [--json] [--ask]",
    );
    assert.equal(
      usageError(['list', 'm.js', '--http', '3000']),
      'list has no option "--http" (options: --json, --profile, --lint, --help)',
    );
    assert.equal(usageError(['serve', 'm.js', '--http']), '--http needs a value');
    assert.equal(usageError(['serve', 'm.js', '--stateless']), '--stateless only applies to --http');
    assert.equal(usageError(['serve', 'm.js', '--name', ' ']), '--name needs a non-empty value');
    assert.equal(usageError(['serve', 'm.js', '--name', 'a', '--name', 'b']), '--name is given twice');
    assert.equal(usageError(['list', 'm.js', '--json=yes']), '--json takes no value');
    assert.equal(
      usageError(['help', 'nope']),
      'help takes one command name (serve, list, lint, call, proxy, init), got "nope"',
    );
    assert.equal(usageError(['--version', 'x']), '--version takes nothing after it, got "x"');
    assert.equal(
      usageError(['call', 'm.js', 'echo', '{text}']),
      `arguments are not valid JSON: ${jsonParseMessage('{text}')}`,
    );
    assert.equal(usageError(['call', 'm.js', 'echo', '[1]']), 'arguments must be a JSON object, got an array');
  });
});

describe('cli parseHttpAddress', () => {
  it('defaults the host to 127.0.0.1 and strips IPv6 brackets', () => {
    assert.deepEqual(parseHttpAddress('3000'), { host: '127.0.0.1', port: 3000 });
    assert.deepEqual(parseHttpAddress('0'), { host: '127.0.0.1', port: 0 });
    assert.deepEqual(parseHttpAddress('localhost:65535'), { host: 'localhost', port: 65535 });
    assert.deepEqual(parseHttpAddress('[::1]:8080'), { host: '::1', port: 8080 });
  });

  it('rejects a port that is not an integer from 0 to 65535, and an empty host', () => {
    for (const bad of ['65536', 'http', '12.5', '-1', 'localhost:', '']) {
      assert.throws(() => parseHttpAddress(bad), {
        name: 'UsageError',
        message: `--http expects [host:]port with a port from 0 to 65535, got ${JSON.stringify(bad)}`,
      });
    }
    assert.throws(() => parseHttpAddress(':3000'), {
      name: 'UsageError',
      message: '--http expects [host:]port, got an empty host in ":3000"',
    });
  });
});

describe('cli parseCallArguments', () => {
  it('accepts one JSON object and rejects every other JSON value', () => {
    assert.deepEqual(parseCallArguments('{"a":[1,{"b":null}]}'), { a: [1, { b: null }] });
    assert.throws(() => parseCallArguments('null'), { message: 'arguments must be a JSON object, got null' });
    assert.throws(() => parseCallArguments('"x"'), { message: 'arguments must be a JSON object, got a string' });
    assert.throws(() => parseCallArguments('3'), { message: 'arguments must be a JSON object, got a number' });
    assert.throws(() => parseCallArguments(''), {
      message: 'arguments are not valid JSON: Unexpected end of JSON input',
    });
  });
});

describe('cli helpText', () => {
  it('lists every command, and each topic starts with its usage line', () => {
    assert.equal(
      helpText(),
      [
        'usage: toolwright <command> [options]',
        '',
        'Commands:',
        '  toolwright serve <module> [--http [host:]port] [--stateless] [--name n] [--version v] [--profile p] [--ask]',
        '  toolwright list <module> [--json] [--profile p] [--lint]',
        '  toolwright lint <module> [--profile p] [--provider a,b] [--json]',
        "  toolwright call <module> <tool> ['<json arguments>'] [--json] [--ask]",
        "  toolwright proxy [NAME=]<url|'command args'>... [--config file.json] [--http [host:]port] [--stateless] [--ask] [--auth-issuer url [--auth-resource url] [--auth-scopes a,b]]",
        '  toolwright init [dir]',
        '  toolwright help [command]        show help (also --help, -h)',
        '  toolwright --version             print the toolwright version',
        '',
        '<module> is a compiled ES module (a path, resolved against the current directory) that',
        'exports classes decorated with @Tool, or `tools`: an array of tool classes, instances or',
        'contract tools, or a function returning one (for tools whose constructors need arguments).',
        'Its @StaticResource, @ResourceTemplate and @Prompt classes (or `resources` and `prompts`',
        'arrays) are served and listed beside the tools; a `changes` export announces resource changes,',
        'and an `onServe(served)` export is given the running server, to add and remove tools later.',
        '',
      ].join('\n'),
    );
    assert.equal(
      helpText('list'),
      [
        'usage: toolwright list <module> [--json] [--profile p] [--lint]',
        '',
        'Prints the tool definitions as a table, or with --json as the exact MCP tool definitions',
        '(with resources or prompts: { tools, resources, resourceTemplates, prompts }).',
        '--profile (exact, portable, openai-strict, gemini, anthropic-strict) lists the schemas as that profile makes them;',
        "--lint also prints the linter's findings.",
        '',
      ].join('\n'),
    );
  });
});
