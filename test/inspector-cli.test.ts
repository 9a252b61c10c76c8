import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CLI_PATH, CONFORMANCE_SAMPLE, INSPECTOR_PATH, REPO_ROOT } from './support/cli-paths.js';
import { serveOverHttp, unusedPort, type ServedOverHttp } from './support/http-serve.js';
import { runProcess, type ProcessOutcome } from './support/run-process.js';
import { CONFORMANCE_TOOL_NAMES as SAMPLE_TOOLS } from './support/conformance-tools.js';

// The MCP Inspector CLI (@modelcontextprotocol/inspector 2.12.0, headless `--cli`) against the
// conformance sample served by the toolwright CLI, over stdio and streamable HTTP. Its exit
// codes: 0 ok, 4 server unreachable, 5 tool error. Every run is bounded.

const TIMEOUT_MS = 30_000;

function inspector(target: readonly string[], request: readonly string[]): Promise<ProcessOutcome> {
  return runProcess(process.execPath, [INSPECTOR_PATH, '--cli', ...target, ...request, '--format', 'json', '-q'], {
    timeoutMs: TIMEOUT_MS,
    cwd: REPO_ROOT,
  });
}

function resultOf(outcome: ProcessOutcome): unknown {
  assert.equal(outcome.timedOut, false, `the Inspector timed out; stderr: ${outcome.stderr}`);
  return (JSON.parse(outcome.stdout) as { result: unknown }).result;
}

const STDIO_TARGET = [process.execPath, CLI_PATH, 'serve', CONFORMANCE_SAMPLE];

for (const transport of ['stdio', 'http'] as const) {
  describe(`inspector --cli over ${transport}`, () => {
    let served: ServedOverHttp | undefined;
    let target: readonly string[] = STDIO_TARGET;

    before(async () => {
      if (transport === 'http') {
        served = await serveOverHttp(CONFORMANCE_SAMPLE);
        target = [served.url];
      }
    });

    after(async () => {
      if (served !== undefined)
        assert.equal(await served.stop(), 0, `serve --http did not exit 0; stderr: ${served.stderr()}`);
    });

    it('lists every sample tool (exit 0)', async () => {
      const outcome = await inspector(target, ['--method', 'tools/list']);
      assert.equal(outcome.code, 0, outcome.stderr);
      const { tools } = resultOf(outcome) as { tools: Array<{ name: string }> };
      assert.deepEqual(
        tools.map((tool) => tool.name),
        SAMPLE_TOOLS,
      );
    });

    it('calls echo with typed --tool-arg values (exit 0, exact result)', async () => {
      const outcome = await inspector(target, [
        '--method',
        'tools/call',
        '--tool-name',
        'echo',
        '--tool-arg',
        'text=hi',
        'count=2',
      ]);
      assert.equal(outcome.code, 0, outcome.stderr);
      assert.deepEqual(resultOf(outcome), { content: [{ type: 'text', text: 'hi hi' }] });
    });

    it('reports a tool error result with exit 5', async () => {
      const outcome = await inspector(target, ['--method', 'tools/call', '--tool-name', 'test_error_handling']);
      assert.equal(outcome.code, 5, outcome.stderr);
      assert.deepEqual(resultOf(outcome), {
        content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
        isError: true,
      });
      assert.deepEqual(JSON.parse(outcome.stderr), {
        error: { code: 'tool_is_error', message: "Tool 'test_error_handling' returned isError:true." },
      });
    });

    it('lists the sample resources and reads a template resource (exit 0, exact results)', async () => {
      const listed = await inspector(target, ['--method', 'resources/list']);
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(
        (resultOf(listed) as { resources: Array<{ uri: string }> }).resources.map((resource) => resource.uri),
        ['test://static-text', 'test://static-binary', 'test://watched-resource'],
      );
      const read = await inspector(target, ['--method', 'resources/read', '--uri', 'test://template/7/data']);
      assert.equal(read.code, 0, read.stderr);
      assert.deepEqual(resultOf(read), {
        contents: [
          {
            uri: 'test://template/7/data',
            mimeType: 'application/json',
            text: '{"id":"7","templateTest":true,"data":"Data for ID: 7"}',
          },
        ],
      });
    });

    it('gets a sample prompt with --prompt-args (exit 0, exact result)', async () => {
      const got = await inspector(target, [
        '--method',
        'prompts/get',
        '--prompt-name',
        'test_prompt_with_arguments',
        '--prompt-args',
        'arg1=hello',
        'arg2=world',
      ]);
      assert.equal(got.code, 0, got.stderr);
      assert.deepEqual(resultOf(got), {
        messages: [
          { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" } },
        ],
      });
    });

    it('reports invalid arguments as a tool error with exit 5, naming the problem', async () => {
      const outcome = await inspector(target, [
        '--method',
        'tools/call',
        '--tool-name',
        'echo',
        '--tool-args-json',
        '{"text":5}',
      ]);
      assert.equal(outcome.code, 5, outcome.stderr);
      assert.deepEqual(resultOf(outcome), {
        content: [{ type: 'text', text: 'invalid arguments: /text: must be string' }],
        isError: true,
      });
    });
  });
}

describe('inspector --cli against nothing', () => {
  it('exits 4 (unreachable) for a port nobody listens on', async () => {
    const port = await unusedPort();
    const outcome = await inspector([`http://127.0.0.1:${port}/mcp`], ['--method', 'tools/list']);
    assert.equal(outcome.timedOut, false);
    assert.equal(outcome.code, 4, outcome.stderr);
    assert.deepEqual(JSON.parse(outcome.stderr), {
      error: { code: 'unreachable', message: 'fetch failed', cause: `connect ECONNREFUSED 127.0.0.1:${port}` },
    });
  });
});
