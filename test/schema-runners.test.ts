import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { REPO_ROOT } from './support/cli-paths.js';
import { runProcess } from './support/run-process.js';

// toolwright on the runners users bring: tsx and vitest 3 compile with esbuild, which records no
// decorator metadata, and TypeScript 5.9, which users of ts-node or swc stay on. Each runs the
// samples' TypeScript sources (not the tsc 7 output the other tests use).

const node = process.execPath;
const RUNNERS = join(REPO_ROOT, 'test', 'runners');

describe('esbuild-based runners', { timeout: 180_000 }, () => {
  it('tsx: the issue tracker sample compiles from source and its tools answer, without design:paramtypes', async () => {
    const run = await runProcess(node, ['--import', 'tsx', join(RUNNERS, 'issues-check.ts')], {
      cwd: REPO_ROOT,
      timeoutMs: 120_000,
    });
    assert.equal(run.stderr, '');
    assert.deepEqual(JSON.parse(run.stdout), {
      designParamTypes: 'none',
      tools: ['create_issue', 'search_issues', 'add_comment', 'schedule_issue', 'link_issues', 'plan_tasks'],
      results: [
        { content: [{ type: 'text', text: '{"issues":[],"total":0}' }], structuredContent: { issues: [], total: 0 } },
        '#1 planned for milestone v2',
        'a: #1 blocks #2',
        'invalid arguments: /issue: must be number or string',
      ],
    });
  });

  it('tsx: the greet sample (@Args(GreetArgs)) compiles; a bare @Args() gets a message naming the runner and the exact fix', async () => {
    const run = await runProcess(node, ['--import', 'tsx', join(RUNNERS, 'greet-check.ts')], {
      cwd: REPO_ROOT,
      timeoutMs: 120_000,
    });
    assert.equal(
      run.stdout,
      [
        'greet: greet',
        'toolwright: 1 problem in the tool contract:',
        '  - [invalid-args-class] class EchoTool: execute() has @Args(), but no design:paramtypes was recorded, so its class is unknown: the runner compiled this file without decorator metadata (tsx, vitest 3 and esbuild bundles use esbuild, which never emits it; with tsc, emitDecoratorMetadata is off). Name the class: @Args(EchoArgs) or @Tool({ args: EchoArgs })',
        '',
      ].join('\n'),
    );
  });

  it('vitest 3 (vite 7): the samples compile and answer inside a vitest test file', async () => {
    const run = await runProcess(
      node,
      [
        join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--root',
        RUNNERS,
        '--config',
        'vitest.config.mjs',
      ],
      { cwd: REPO_ROOT, timeoutMs: 150_000, env: { ...process.env, CI: 'true', NO_COLOR: '1' } },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /Tests {2}2 passed \(2\)/);
  });
});

describe('TypeScript 5.9', { timeout: 240_000 }, () => {
  it('type-checks every sample with the same tsconfig as TypeScript 7', async () => {
    const run = await runProcess(
      node,
      [join(REPO_ROOT, 'node_modules', 'typescript5', 'bin', 'tsc'), '-p', join(RUNNERS, 'tsconfig.ts5.json')],
      { cwd: REPO_ROOT, timeoutMs: 220_000 },
    );
    assert.deepEqual({ code: run.code, out: run.stdout, err: run.stderr }, { code: 0, out: '', err: '' });
  });
});
