/**
 * `compile` reports duplicate names in the order each name was first given, whatever order the
 * repeats come in (its duplicate check keeps a list only for names given again). Runs in a few
 * milliseconds.
 */
import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compile, ContractError, type ContractIssue } from '../src/index.js';

function issuesOf(body: () => unknown): ContractIssue[] {
  try {
    body();
  } catch (error) {
    assert.ok(error instanceof ContractError);
    return [...error.issues];
  }
  assert.fail('expected a ContractError');
}

test('duplicate names: one issue per repeated name, in the order of first use, each listing every source', () => {
  const tool = (name: string, description: string) => ({ name, description, execute: async () => description });
  const issues = issuesOf(() =>
    compile([
      tool('alpha', 'a1'),
      tool('beta', 'b1'),
      tool('solo', 's'),
      tool('beta', 'b2'),
      tool('alpha', 'a2'),
      tool('beta', 'b3'),
    ]),
  );
  assert.deepEqual(
    issues.map((issue) => issue.message),
    [
      'tool name "alpha" is used 2 times (contract tool "alpha", contract tool "alpha"): names must be unique in a set; give all but one another name (@Tool({ name: \'...\' }) on a class, "name" on a contract tool)',
      'tool name "beta" is used 3 times (contract tool "beta", contract tool "beta", contract tool "beta"): names must be unique in a set; give all but one another name (@Tool({ name: \'...\' }) on a class, "name" on a contract tool)',
    ],
  );
  assert.deepEqual(
    issuesOf(() => compile([tool('x', '1'), tool('x', '2')])).map((issue) => issue.code),
    ['duplicate-name'],
  );
});
