import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PermissionPolicy,
  createPolicy,
  closureOf,
  implicationsOf,
  globToRegExp,
  DecisionMap,
} from '../src/runtime/permissions/index.js';

test('closure is transitive, cycle-safe and lists grants first', () => {
  const policy = createPolicy({
    implications: { admin: ['write', 'exec'], write: ['read', 'list'], read: ['list'], a: ['b'], b: ['a'] },
  });
  assert.deepEqual([...policy.closure(['admin'])], ['admin', 'write', 'exec', 'read', 'list']);
  assert.deepEqual([...policy.closure(['read', 'write'])], ['read', 'write', 'list']);
  assert.deepEqual([...policy.closure(['a'])], ['a', 'b']);
  assert.deepEqual([...policy.closure([])], []);
  assert.deepEqual([...closureOf(implicationsOf(new Map([['x', ['y']]])), ['x', 'z'])], ['x', 'z', 'y']);
});

test('implications from an object never read the prototype', () => {
  const implications = implicationsOf(JSON.parse('{"__proto__": ["read"], "write": ["read"]}'));
  assert.deepEqual([...implications.keys()], ['__proto__', 'write']);
  assert.deepEqual([...closureOf(implications, ['toString'])], ['toString']);
});

test('bad options, rules and implications fail with a message naming them', () => {
  assert.throws(() => createPolicy({ implications: { write: 'read' as never } }), {
    name: 'TypeError',
    message: 'permissions: the implications of "write" must be an array of non-empty capability names',
  });
  assert.throws(() => createPolicy({ rules: [{ effect: 'maybe' as never }] }), {
    message: 'permissions: rule 1: "effect" must be "allow" or "deny", got "maybe"',
  });
  assert.throws(() => createPolicy({ rules: [{ effect: 'allow' }, { effect: 'deny', capabilities: [] }] }), {
    message:
      'permissions: rule 2: "capabilities" must be a non-empty array of capability names (leave it out to cover every capability)',
  });
  assert.throws(() => createPolicy({ rules: [{ effect: 'allow', subjects: '/x' } as never] }), {
    message:
      'permissions: rule 1: unknown key "subjects" (known keys: effect, tool, subject, path, caseSensitive, capabilities, reason)',
  });
  assert.throws(() => createPolicy({ rules: [{ effect: 'allow', subject: 7 as never }] }), {
    message: 'permissions: rule 1: "subject" must be a glob string or a RegExp, got a number',
  });
  assert.throws(() => createPolicy({ maxQuestions: 0 }), {
    message: 'permissions: "maxQuestions" must be a positive integer, got 0',
  });
  assert.throws(() => createPolicy({ asks: () => undefined } as never), {
    message:
      'permissions: unknown option "asks" (known options: implications, rules, ask, maxQuestions, decisionScope, askTimeoutMs, decisionStore, pathBase, log)',
  });
});

test('globs match whole names; ** crosses slashes, * and ? do not', () => {
  assert.equal(globToRegExp('/tmp/**').source, '^\\/tmp\\/.*$');
  const policy = new PermissionPolicy({
    rules: [
      { effect: 'allow', path: '/tmp/*', capabilities: ['write'] },
      { effect: 'allow', path: '/docs/**', capabilities: ['read'] },
      { effect: 'allow', subject: 'file?.txt', capabilities: ['read'] },
      { effect: 'allow', tool: /^fs_/, capabilities: ['list'] },
    ],
  });
  assert.equal(policy.check('t', '/tmp/a.txt', 'write')?.effect, 'allow');
  assert.equal(policy.check('t', '/tmp/sub/a.txt', 'write'), undefined);
  assert.equal(policy.check('t', '/docs/a/b/c.md', 'read')?.effect, 'allow');
  assert.equal(policy.check('t', '/docs', 'read'), undefined);
  assert.equal(policy.check('t', 'file1.txt', 'read')?.effect, 'allow');
  assert.equal(policy.check('t', 'file12.txt', 'read'), undefined);
  assert.equal(policy.check('t', 'a+b', 'read'), undefined);
  assert.equal(policy.check('fs_list', 'anything', 'list')?.effect, 'allow');
  assert.equal(policy.check('xfs_list', 'anything', 'list'), undefined);
});

test('a RegExp with the g flag keeps no state between checks', () => {
  const policy = createPolicy({ rules: [{ effect: 'allow', subject: /^\/tmp\//g }] });
  assert.equal(policy.check('t', '/tmp/a', 'read')?.effect, 'allow');
  assert.equal(policy.check('t', '/tmp/a', 'read')?.effect, 'allow');
});

test('rules: first match wins per capability; allow covers implied, deny covers implying', () => {
  const policy = createPolicy({
    implications: { write: ['read'] },
    rules: [
      { effect: 'deny', path: '/etc/**', capabilities: ['read'], reason: 'system files are private' },
      { effect: 'allow', path: '/etc/motd' },
      { effect: 'allow', path: '/home/**', capabilities: ['write'] },
      { effect: 'deny', tool: 'rm', reason: 'rm is off' },
    ],
  });
  assert.deepEqual(policy.check('cat', '/etc/passwd', 'read'), {
    effect: 'deny',
    source: 'rule',
    reason: 'system files are private',
  });
  assert.deepEqual(policy.check('cat', '/etc/passwd', 'write'), {
    effect: 'deny',
    source: 'rule',
    reason: 'system files are private',
  });
  assert.deepEqual(policy.check('cat', '/etc/motd', 'write'), {
    effect: 'deny',
    source: 'rule',
    reason: 'system files are private',
  });
  assert.deepEqual(policy.check('cat', '/etc/motd', 'exec'), { effect: 'allow', source: 'rule' });
  assert.deepEqual(policy.check('cat', '/home/a', 'read'), { effect: 'allow', source: 'rule' });
  assert.equal(policy.check('cat', '/home/a', 'exec'), undefined);
  assert.deepEqual(policy.check('rm', '/var/x', 'exec'), { effect: 'deny', source: 'rule', reason: 'rm is off' });
});

test('remembered decisions are per tool, subject and capability, follow implications, and rules come first', () => {
  const policy = createPolicy({ implications: { write: ['read'] } });
  void policy.remember('edit', '/a', ['write'], 'allow');
  void policy.remember('edit', '/b', ['read'], 'deny', 'no');
  assert.deepEqual(policy.check('edit', '/a', 'read'), { effect: 'allow', source: 'remembered' });
  assert.deepEqual(policy.check('edit', '/a', 'write'), { effect: 'allow', source: 'remembered' });
  assert.equal(policy.check('edit', '/a', 'exec'), undefined);
  assert.equal(policy.check('view', '/a', 'read'), undefined);
  assert.equal(policy.check('edit', '/a/', 'read'), undefined);
  assert.deepEqual(policy.check('edit', '/b', 'write'), { effect: 'deny', source: 'remembered', reason: 'no' });
  policy.addRule({ effect: 'deny', path: '/a', reason: 'locked' }, { first: true });
  assert.deepEqual(policy.check('edit', '/a', 'read'), { effect: 'deny', source: 'rule', reason: 'locked' });
  assert.deepEqual(policy.remembered(), [
    { tool: 'edit', subject: '/a', capability: 'write', effect: 'allow' },
    { tool: 'edit', subject: '/b', capability: 'read', effect: 'deny', reason: 'no' },
  ]);
  void policy.forget();
  assert.deepEqual(policy.remembered(), []);
  assert.deepEqual(policy.rules, [{ effect: 'deny', path: '/a', reason: 'locked' }]);
});

test("one call's once-decisions come after remembered ones", () => {
  const policy = createPolicy();
  const once = new DecisionMap();
  once.set('t', '/x', ['write'], 'allow');
  assert.deepEqual(policy.check('t', '/x', 'write', once), { effect: 'allow', source: 'once' });
  assert.equal(policy.check('t', '/x', 'write'), undefined);
  void policy.remember('t', '/x', ['write'], 'deny');
  assert.deepEqual(policy.check('t', '/x', 'write', once), { effect: 'deny', source: 'remembered' });
});
