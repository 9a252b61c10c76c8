import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tool, compile } from '../src/index.js';
import { inferToolName } from '../src/compiler/index.js';
import { issuesOf } from './support/compile-helpers.js';

test('inferToolName: snake_case without a trailing Tool, acronyms as one word', () => {
  const cases: Array<[string, string]> = [
    ['ReadFileTool', 'read_file'],
    ['ReadFile', 'read_file'],
    ['ListDirectory', 'list_directory'],
    ['HTTPGetTool', 'http_get'],
    ['GetURLForID', 'get_url_for_id'],
    ['S3Upload', 's3_upload'],
    ['Base64Encode', 'base64_encode'],
    ['OAuth2Login', 'o_auth2_login'],
    ['JSONTool', 'json'],
    ['Tool', 'tool'],
    ['ToolTool', 'tool'],
    ['Stool', 'stool'],
    ['GetTools', 'get_tools'],
    ['read_file', 'read_file'],
    ['X', 'x'],
  ];
  assert.deepEqual(
    cases.map(([name]) => [name, inferToolName(name)]),
    cases,
  );
});

test('compile names a tool after its class unless @Tool names it', () => {
  @Tool({ description: 'Fetch a URL' })
  class HTTPGetTool {
    execute() {
      return 'ok';
    }
  }
  @Tool({ name: 'fetch.v2', description: 'Fetch a URL, again' })
  class FetchTool {
    execute() {
      return 'ok';
    }
  }
  assert.deepEqual(
    compile([HTTPGetTool, FetchTool]).map((t) => t.name),
    ['http_get', 'fetch.v2'],
  );
});

test('an inferred name MCP cannot use is invalid-name, with the fix', () => {
  @Tool({ description: 'Costs' })
  class Cost$Tool {
    execute() {
      return 'ok';
    }
  }
  assert.deepEqual(
    issuesOf(() => compile([Cost$Tool])),
    [
      {
        code: 'invalid-name',
        className: 'Cost$Tool',
        message:
          'class Cost$Tool: the tool name "cost$" inferred from the class name is not a valid MCP tool name (1 to 128 of A-Z a-z 0-9 _ - .): set @Tool({ name: \'...\' })',
      },
    ],
  );
});

test('a class name longer than 128 characters is invalid-name', () => {
  const long = 'A'.repeat(130);
  const cls = {
    [long]: class {
      execute() {
        return 'ok';
      }
    },
  }[long]!;
  Tool({ description: 'Long' })(cls);
  const [issue] = issuesOf(() => compile([cls]));
  assert.equal(issue!.code, 'invalid-name');
  assert.equal(
    issue!.message,
    `class ${long}: the tool name "${'a'.repeat(130)}" inferred from the class name is not a valid MCP tool name (1 to 128 of A-Z a-z 0-9 _ - .): set @Tool({ name: '...' })`,
  );
});

test('an anonymous class has no name to infer', () => {
  const cls = (() =>
    class {
      execute() {
        return 'ok';
      }
    })();
  Tool({ description: 'Anonymous' })(cls);
  assert.deepEqual(
    issuesOf(() => compile([cls])),
    [
      {
        code: 'invalid-name',
        className: '(anonymous class)',
        message: "an anonymous class has no name to infer a tool name from: set @Tool({ name: '...' })",
      },
    ],
  );
});
