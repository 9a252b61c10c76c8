import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import { parseArgs, UsageError } from '../src/cli/args.js';
import { OUT_DIR, REPO_ROOT } from './support/cli-paths.js';
import { runCliCaptured } from './support/cli-io.js';

// The CLI's lint command and list's --profile/--lint, in process, on the issue tracker sample.

const ISSUES = relative(REPO_ROOT, join(OUT_DIR, 'samples', 'issues', 'tools.js'));

describe('cli lint', () => {
  it('prints every finding with tool, schema, pointer and rule, and exits 1', async () => {
    const run = await runCliCaptured(['lint', ISSUES, '--provider', 'gemini']);
    assert.equal(run.code, 1);
    assert.equal(run.err, '');
    const lines = run.out.trimEnd().split('\n');
    assert.equal(lines.length, 31);
    assert.equal(
      lines[0],
      'create_issue inputSchema /properties/body/type: [gemini/type-list] type ["string","null"] is a list; Gemini takes one type (null through anyOf or nullable); fix: compile or serve with schemaProfile: \'portable\' (or --profile portable): the listing writes anyOf [X, {"type":"null"}] and the server still enforces it',
    );
    assert.equal(lines[30], '30 findings (gemini 30)');
  });

  it('with --profile portable finds nothing but raw Gemini additionalProperties; --profile gemini passes Gemini', async () => {
    const strict = ['--provider', 'openai-strict,anthropic,anthropic-strict,mcp'];
    assert.deepEqual(await runCliCaptured(['lint', ISSUES, '--profile', 'portable', ...strict]), {
      code: 0,
      out: 'no findings\n',
      err: '',
    });
    // portable leaves gemini/additional-properties to the host's Gemini adapter: not reported
    // unless the providers are named.
    assert.deepEqual(await runCliCaptured(['lint', ISSUES, '--profile', 'portable']), {
      code: 0,
      out: 'no findings\n',
      err: '',
    });
    const named = await runCliCaptured(['lint', ISSUES, '--profile', 'portable', '--provider', 'gemini']);
    assert.equal(named.code, 1);
    assert.ok(named.out.endsWith('\n15 findings (gemini 15)\n'), named.out.slice(-200));
    assert.deepEqual(
      named.out
        .trimEnd()
        .split('\n')
        .slice(0, -1)
        .filter((line) => !line.includes(' [gemini/additional-properties] ')),
      [],
    );
    assert.deepEqual(await runCliCaptured(['lint', ISSUES, '--profile', 'gemini', '--provider', 'gemini']), {
      code: 0,
      out: 'no findings\n',
      err: '',
    });
  });

  it('prints the findings as JSON with --json', async () => {
    const run = await runCliCaptured(['lint', ISSUES, '--provider', 'anthropic-strict', '--json']);
    const findings = JSON.parse(run.out) as { rule: string; pointer: string; tool: string }[];
    assert.equal(run.code, 1);
    assert.deepEqual(
      findings.filter((f) => f.tool === 'plan_tasks').map((f) => `${f.rule} ${f.pointer}`),
      [
        'anthropic-strict/recursion /$defs',
        'anthropic-strict/numeric-bounds /properties/issue/minimum',
        'anthropic-strict/length-bounds /$defs/Task/properties/title/minLength',
        'anthropic-strict/type-list /$defs/Task/properties/subtasks/type',
      ],
    );
  });
});

describe('cli list --profile and --lint', () => {
  it('reads types as people write them: ("a" | "b")[], Record<string, T>, unions', async () => {
    const run = await runCliCaptured(['list', ISSUES]);
    assert.equal(run.code, 0);
    assert.ok(run.out.includes('    states?: ("open" | "closed")[], default ["open"] — States to include\n'), run.out);
    assert.ok(run.out.includes('    fields?: Record<string, string>, default {} — Free-form key/value fields\n'));
    assert.ok(run.out.includes('    issue: number | string — The issue, by number or by key such as "WEB-12"\n'));
  });

  it('lists the portable schemas with --profile portable, and the findings with --lint', async () => {
    const run = await runCliCaptured(['list', ISSUES, '--profile', 'portable', '--json', '--lint']);
    const listed = JSON.parse(run.out) as {
      tools: { name: string; inputSchema: { required: string[] } }[];
      findings: unknown[];
    };
    assert.deepEqual(listed.findings, []);
    assert.deepEqual(listed.tools.find((t) => t.name === 'search_issues')!.inputSchema.required, [
      'query',
      'states',
      'limit',
    ]);
    const text = await runCliCaptured(['list', ISSUES, '--lint']);
    assert.ok(
      text.out.endsWith('84 findings (openai-strict 25, gemini 30, anthropic-strict 29)\n'),
      text.out.slice(-200),
    );
  });
});

describe('cli arguments for profiles and lint', () => {
  it('parses --profile, --lint and --provider', () => {
    assert.deepEqual(parseArgs(['lint', 'm.js', '--provider', 'gemini,mcp', '--profile=portable']), {
      kind: 'lint',
      module: 'm.js',
      profile: 'portable',
      providers: ['gemini', 'mcp'],
      json: false,
    });
    assert.deepEqual(parseArgs(['list', 'm.js', '--lint']), { kind: 'list', module: 'm.js', json: false, lint: true });
    assert.deepEqual(parseArgs(['serve', 'm.js', '--profile', 'gemini']), {
      kind: 'serve',
      module: 'm.js',
      stateless: false,
      profile: 'gemini',
    });
  });

  it('refuses an unknown profile or provider, naming the known ones', () => {
    assert.throws(
      () => parseArgs(['list', 'm.js', '--profile', 'claude']),
      new UsageError('--profile must be one of exact, portable, openai-strict, gemini, anthropic-strict, got "claude"'),
    );
    assert.throws(
      () => parseArgs(['lint', 'm.js', '--provider', 'openai']),
      new UsageError(
        '--provider: unknown provider "openai" (known: openai-strict, gemini, anthropic, anthropic-strict, mcp)',
      ),
    );
  });
});
