import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { OUT_DIR, REPO_ROOT } from './support/cli-paths.js';
import { runProcess } from './support/run-process.js';

// The MCP conformance suite against the conformance sample served by `toolwright serve --http`,
// through scripts/conformance.mjs with the expected-failures baselines: 0.1.16 (`--suite all`,
// the 2025 revisions) and 0.2.0-alpha.11 (`--spec-version 2026-07-28`). Each takes a few seconds
// to tens of seconds.

/** The suite's summary for toolwright's sample server, line for line. */
const EXPECTED_SUMMARY = [
  '=== SUMMARY ===',
  '✓ server-initialize: 1 passed, 0 failed',
  '✓ logging-set-level: 1 passed, 0 failed',
  '✓ ping: 1 passed, 0 failed',
  '✓ completion-complete: 1 passed, 0 failed',
  '✓ tools-list: 1 passed, 0 failed',
  '✓ tools-call-simple-text: 1 passed, 0 failed',
  '✓ tools-call-image: 1 passed, 0 failed',
  '✓ tools-call-audio: 1 passed, 0 failed',
  '✓ tools-call-embedded-resource: 1 passed, 0 failed',
  '✓ tools-call-mixed-content: 1 passed, 0 failed',
  '✓ tools-call-with-logging: 1 passed, 0 failed',
  '✓ tools-call-error: 1 passed, 0 failed',
  '✓ tools-call-with-progress: 1 passed, 0 failed',
  '✓ tools-call-sampling: 1 passed, 0 failed',
  '✓ tools-call-elicitation: 1 passed, 0 failed',
  '✓ json-schema-2020-12: 4 passed, 0 failed',
  '✓ elicitation-sep1034-defaults: 5 passed, 0 failed',
  '✓ server-sse-polling: 0 passed, 0 failed',
  '✓ server-sse-multiple-streams: 1 passed, 0 failed',
  '✓ elicitation-sep1330-enums: 5 passed, 0 failed',
  '✓ resources-list: 1 passed, 0 failed',
  '✓ resources-read-text: 1 passed, 0 failed',
  '✓ resources-read-binary: 1 passed, 0 failed',
  '✓ resources-templates-read: 1 passed, 0 failed',
  '✓ resources-subscribe: 1 passed, 0 failed',
  '✓ resources-unsubscribe: 1 passed, 0 failed',
  '✓ prompts-list: 1 passed, 0 failed',
  '✓ prompts-get-simple: 1 passed, 0 failed',
  '✓ prompts-get-with-args: 1 passed, 0 failed',
  '✓ prompts-get-embedded-resource: 1 passed, 0 failed',
  '✓ prompts-get-with-image: 1 passed, 0 failed',
  '✓ dns-rebinding-protection: 2 passed, 0 failed',
  '',
  'Total: 43 passed, 0 failed',
];

/** The 2026-07-28 suite's summary (0.2.0-alpha.11, `--spec-version 2026-07-28`), line for line. */
const EXPECTED_SUMMARY_2026 = [
  '=== SUMMARY ===',
  '✓ server-stateless: 30 passed, 0 failed',
  '✓ completion-complete: 2 passed, 0 failed',
  '✓ tools-list: 3 passed, 0 failed',
  '✓ tools-call-simple-text: 2 passed, 0 failed',
  '✓ tools-call-image: 2 passed, 0 failed',
  '✓ tools-call-audio: 2 passed, 0 failed',
  '✓ tools-call-embedded-resource: 2 passed, 0 failed',
  '✓ tools-call-mixed-content: 2 passed, 0 failed',
  '✓ tools-call-error: 2 passed, 0 failed',
  '✓ tools-call-with-progress: 2 passed, 0 failed',
  '✓ json-schema-2020-12: 8 passed, 0 failed',
  '✓ server-sse-multiple-streams: 1 passed, 0 failed',
  '✓ resources-list: 2 passed, 0 failed',
  '✓ resources-read-text: 2 passed, 0 failed',
  '✓ resources-read-binary: 2 passed, 0 failed',
  '✓ resources-templates-read: 2 passed, 0 failed',
  '✓ sep-2164-resource-not-found: 4 passed, 0 failed',
  '✓ prompts-list: 2 passed, 0 failed',
  '✓ prompts-get-simple: 2 passed, 0 failed',
  '✓ prompts-get-with-args: 2 passed, 0 failed',
  '✓ prompts-get-embedded-resource: 2 passed, 0 failed',
  '✓ prompts-get-with-image: 2 passed, 0 failed',
  '✓ dns-rebinding-protection: 2 passed, 0 failed',
  '✓ caching: 8 passed, 0 failed',
  '✓ http-header-validation: 14 passed, 0 failed',
  '✓ http-custom-header-server-validation: 10 passed, 0 failed',
  '✓ input-required-result-basic-elicitation: 3 passed, 0 failed',
  '✓ input-required-result-basic-sampling: 3 passed, 0 failed',
  '✓ input-required-result-basic-list-roots: 3 passed, 0 failed',
  '✓ input-required-result-request-state: 3 passed, 0 failed',
  '✓ input-required-result-multiple-input-requests: 3 passed, 0 failed',
  '✓ input-required-result-multi-round: 4 passed, 0 failed',
  '✓ input-required-result-missing-input-response: 2 passed, 0 failed',
  '✓ input-required-result-non-tool-request: 3 passed, 0 failed',
  '✓ input-required-result-result-type: 2 passed, 0 failed',
  '✓ input-required-result-unsupported-methods: 2 passed, 0 failed',
  '✓ input-required-result-tampered-state: 2 passed, 0 failed',
  '✓ input-required-result-capability-check: 2 passed, 0 failed',
  '✓ input-required-result-ignore-extra-params: 2 passed, 0 failed',
  '✓ input-required-result-validate-input: 3 passed, 0 failed',
  '',
  'Total: 151 passed, 0 failed',
];

/** Drops ANSI colour codes, which the suite prints around its baseline verdict. */
// oxlint-disable-next-line no-control-regex -- ESC is the character looked for
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

describe('conformance suite', () => {
  it('passes every scenario of the 2025 revisions, resources, prompts and completion included (exit 0)', async () => {
    const outcome = await runProcess(
      process.execPath,
      [join(REPO_ROOT, 'scripts', 'conformance.mjs'), '--dist', basename(OUT_DIR), '--timeout', '150'],
      {
        timeoutMs: 180_000,
        cwd: REPO_ROOT,
      },
    );
    const out = plain(outcome.stdout);
    assert.equal(outcome.timedOut, false, `the run timed out:\n${out}\n${outcome.stderr}`);
    assert.equal(outcome.code, 0, `exit ${outcome.code}:\n${out}\n${outcome.stderr}`);
    const start = out.indexOf('=== SUMMARY ===');
    assert.ok(start >= 0, `no summary in:\n${out}`);
    assert.deepEqual(out.slice(start).split('\n').slice(0, EXPECTED_SUMMARY.length), EXPECTED_SUMMARY);
    assert.ok(out.includes('\nBaseline check passed: all failures are expected.\n'), out);
    assert.ok(out.endsWith('conformance: suite exited with code 0\n'), out);
  });

  it('passes every scenario of the 2026-07-28 revision, resources, prompts, completion, caching and list changes included, no check skipped (exit 0)', async () => {
    const results = mkdtempSync(join(tmpdir(), 'toolwright-conformance-'));
    const outcome = await runProcess(
      process.execPath,
      [
        join(REPO_ROOT, 'scripts', 'conformance.mjs'),
        '--spec-version',
        '2026-07-28',
        '--dist',
        basename(OUT_DIR),
        '--timeout',
        '250',
        '--',
        '-o',
        results,
      ],
      {
        timeoutMs: 280_000,
        cwd: REPO_ROOT,
      },
    );
    let statuses: Record<string, string>;
    try {
      statuses = checkStatuses(results);
    } finally {
      rmSync(results, { recursive: true, force: true });
    }
    // The two list-changed checks a server with a fixed set skips, and the caching hints, pass.
    assert.deepEqual(
      [
        'sep-2575-server-sends-tools-list-changed-on-subscription',
        'sep-2575-server-sends-prompts-list-changed-on-subscription',
        'sep-2575-server-honors-notification-filter',
        'sep-2549-tools-list-caching-hints',
        'sep-2549-prompts-list-caching-hints',
        'sep-2549-resources-list-caching-hints',
        'sep-2549-resources-templates-list-caching-hints',
        'sep-2549-resources-read-caching-hints',
      ].map((id) => [id, statuses[id]]),
      [
        ['sep-2575-server-sends-tools-list-changed-on-subscription', 'SUCCESS'],
        ['sep-2575-server-sends-prompts-list-changed-on-subscription', 'SUCCESS'],
        ['sep-2575-server-honors-notification-filter', 'SUCCESS'],
        ['sep-2549-tools-list-caching-hints', 'SUCCESS'],
        ['sep-2549-prompts-list-caching-hints', 'SUCCESS'],
        ['sep-2549-resources-list-caching-hints', 'SUCCESS'],
        ['sep-2549-resources-templates-list-caching-hints', 'SUCCESS'],
        ['sep-2549-resources-read-caching-hints', 'SUCCESS'],
      ],
    );
    // No check is skipped, warns or fails (INFO checks report, and count for nothing).
    assert.deepEqual(
      Object.entries(statuses).filter(([, status]) => status !== 'SUCCESS' && status !== 'INFO'),
      [],
    );
    const out = plain(outcome.stdout);
    assert.equal(outcome.timedOut, false, `the run timed out:\n${out}\n${outcome.stderr}`);
    assert.equal(outcome.code, 0, `exit ${outcome.code}:\n${out}\n${outcome.stderr}`);
    const start = out.indexOf('=== SUMMARY ===');
    assert.ok(start >= 0, `no summary in:\n${out}`);
    assert.deepEqual(out.slice(start).split('\n').slice(0, EXPECTED_SUMMARY_2026.length), EXPECTED_SUMMARY_2026);
    assert.ok(out.includes('\nBaseline check passed: all failures are expected.\n'), out);
    assert.ok(out.endsWith('conformance: suite exited with code 0\n'), out);
  });
});

/**
 * The 2026-07-28 tasks extension's scenarios (`node scripts/conformance.mjs --tasks`): each check
 * that does not pass, by scenario, with its status. Every other check passes (or is INFO). The
 * `wire-schema-valid` failures are the suite's (see scripts/conformance-expected-failures-tasks.yml).
 */
const TASKS_NOT_PASSING: Record<string, Record<string, string>> = {
  'tasks-lifecycle': { 'wire-schema-valid': 'FAILURE' },
  'tasks-capability-negotiation': { 'wire-schema-valid': 'FAILURE' },
  'tasks-wire-fields': { 'wire-schema-valid': 'FAILURE' },
  'tasks-request-state-removal': { 'wire-schema-valid': 'FAILURE' },
  'tasks-mrtr-input': { 'wire-schema-valid': 'FAILURE' },
  'tasks-request-headers': { 'wire-schema-valid': 'FAILURE' },
  'tasks-dispatch-and-envelope': { 'wire-schema-valid': 'FAILURE' },
  'tasks-status-notifications': { 'tasks-status-notifications': 'SKIPPED' },
  'tasks-required-task-error': {},
  'tasks-mrtr-composition': { 'wire-schema-valid': 'FAILURE' },
};

/** The one violation the suite's wire-schema check reports for a `CreateTaskResult` (see above). */
const CREATE_TASK_RESULT_VIOLATION = "CallToolResult: must have required property 'content' (result of 'tools/call')";

describe('conformance suite, tasks extension', () => {
  it("passes every tasks-* scenario but the suite's wire-schema check of a CreateTaskResult", async () => {
    const results = mkdtempSync(join(tmpdir(), 'toolwright-conformance-tasks-'));
    const outcome = await runProcess(
      process.execPath,
      [
        join(REPO_ROOT, 'scripts', 'conformance.mjs'),
        '--tasks',
        '--dist',
        basename(OUT_DIR),
        '--timeout',
        '150',
        '--',
        '-o',
        results,
      ],
      { timeoutMs: 180_000, cwd: REPO_ROOT },
    );
    const notPassing: Record<string, Record<string, string>> = {};
    const violations = new Set<string>();
    try {
      for (const dir of readdirSync(results)) {
        const scenario = /^server-(tasks-[a-z-]+?)-\d{4}-/.exec(dir)?.[1] ?? dir;
        const checks = JSON.parse(readFileSync(join(results, dir, 'checks.json'), 'utf8')) as {
          id: string;
          status: string;
          details?: { violations?: { errors: string[]; message: { result?: { resultType?: string } } }[] };
        }[];
        notPassing[scenario] = {};
        for (const check of checks) {
          if (check.status !== 'SUCCESS' && check.status !== 'INFO') notPassing[scenario][check.id] = check.status;
          for (const violation of check.details?.violations ?? [])
            violations.add(`${violation.message.result?.resultType}: ${violation.errors.join('; ')}`);
        }
      }
    } finally {
      rmSync(results, { recursive: true, force: true });
    }
    const out = plain(outcome.stdout);
    assert.equal(outcome.timedOut, false, `the run timed out:\n${out}\n${outcome.stderr}`);
    assert.equal(outcome.code, 0, `exit ${outcome.code}:\n${out}\n${outcome.stderr}`);
    assert.deepEqual(notPassing, TASKS_NOT_PASSING);
    // Every wire-schema violation is a CreateTaskResult read as a CallToolResult.
    assert.deepEqual([...violations], [`task: ${CREATE_TASK_RESULT_VIOLATION}`]);
    assert.equal(out.split('\nBaseline check passed: all failures are expected.\n').length - 1, 10, out);
    assert.ok(out.endsWith('conformance: suite exited with code 0\n'), out);
  });
});

/** The status of every check the suite wrote under `dir` (one `checks.json` per scenario), by check id. */
function checkStatuses(dir: string): Record<string, string> {
  const statuses: Record<string, string> = {};
  for (const scenario of readdirSync(dir)) {
    const checks = JSON.parse(readFileSync(join(dir, scenario, 'checks.json'), 'utf8')) as {
      id: string;
      status: string;
    }[];
    for (const check of checks) statuses[check.id] = check.status;
  }
  return statuses;
}
