import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PermissionDeniedError,
  PermissionNeeded,
  TooManyPermissionQuestionsError,
  closureOf,
  implicationsOf,
  globToRegExp,
  normalisedPathSubject,
} from '../src/runtime/permissions/index.js';
import { contextWith, throwIfAborted } from '../src/runtime/permissions/context.js';
import { matcherOf } from '../src/runtime/permissions/patterns.js';
import { pathMatcherOf } from '../src/runtime/permissions/paths.js';
import { checkDeclared, requestOf, requireEveryThrough, subjectsOf } from '../src/runtime/permissions/requirements.js';
import {
  InvalidArgumentsError,
  createCallContext,
  type CallContext,
  type PermissionRequest,
  type Requirement,
} from '../src/contract/index.js';

// Imports stop at the permissions module and the contract (never the package root): each mutant
// runs this file in a fresh process, so it loads only what it tests.

/*
 * Behaviours of the permissions module that mutation testing (`npm run mutate:permissions`)
 * found unpinned: each test fails when the line it names is changed (see docs/mutation.md).
 */

test('PermissionDeniedError: each denial is "<capabilities> on <subject>", with ": <reason>" only for a non-empty reason, joined by "; "', () => {
  const error = new PermissionDeniedError([
    { subject: '/a', capabilities: ['write', 'read'], reason: 'read-only' },
    { subject: '/b', capabilities: ['exec'], reason: '' },
    { subject: '/c', capabilities: ['read'] },
  ]);
  assert.equal(error.message, 'permission denied: write, read on "/a": read-only; exec on "/b"; read on "/c"');
  assert.equal(error.name, 'PermissionDeniedError');
  assert.equal(error.code, 'permission-denied');
});

test('PermissionDeniedError keeps a frozen copy of its denials: changing the given list later changes nothing', () => {
  const capabilities = ['write'];
  const given = [{ subject: '/a', capabilities }];
  const error = new PermissionDeniedError(given);
  capabilities.push('read');
  given.push({ subject: '/b', capabilities: ['exec'] });
  assert.deepEqual(error.denials, [{ subject: '/a', capabilities: ['write'] }]);
  assert.equal(Object.isFrozen(error.denials), true);
  assert.equal(Object.isFrozen(error.denials[0]), true);
  assert.equal(Object.isFrozen(error.denials[0]!.capabilities), true);
  assert.equal(error.record, undefined);
});

test('PermissionNeeded (deprecated) names the capabilities and subject, and keeps a frozen copy of its question', () => {
  const capabilities = ['write', 'read'];
  const question = { tool: 't', subject: '/x', capabilities, reason: 'save' };
  const error = new PermissionNeeded(question);
  capabilities.push('exec');
  assert.equal(
    error.message,
    'permission needed: write, read on "/x" (the call core asks the user and runs the tool again; this never reaches the model)',
  );
  assert.equal(error.name, 'PermissionNeeded');
  assert.deepEqual(error.question, { tool: 't', subject: '/x', capabilities: ['write', 'read'], reason: 'save' });
  assert.equal(Object.isFrozen(error.question), true);
  assert.equal(Object.isFrozen(error.question.capabilities), true);
});

test('TooManyPermissionQuestionsError keeps its limit and names the tool', () => {
  const error = new TooManyPermissionQuestionsError('many', 3);
  assert.equal(error.limit, 3);
  assert.equal(error.name, 'TooManyPermissionQuestionsError');
  assert.equal(error.message, 'tool "many" needed more than 3 permission questions in one call');
});

test('contextWith copies every enumerable member (own or inherited), keeps getters lazy, lets overrides win and never changes the original', () => {
  let reads = 0;
  const base = Object.create({ inherited: 'from the prototype' }) as Record<string, unknown>;
  base.plain = 1;
  base.replaced = 'old';
  Object.defineProperty(base, 'lazy', {
    enumerable: true,
    get: () => {
      reads += 1;
      return `read ${reads}`;
    },
  });
  Object.defineProperty(base, 'hidden', { enumerable: false, value: 'not copied' });
  const copy = contextWith(base as unknown as CallContext, { replaced: 'new' } as never) as unknown as Record<
    string,
    unknown
  >;
  assert.equal(reads, 0, 'a getter is carried over, not read');
  assert.deepEqual(Object.keys(copy).sort(), ['inherited', 'lazy', 'plain', 'replaced']);
  assert.equal(copy.inherited, 'from the prototype');
  assert.equal(copy.plain, 1);
  assert.equal(copy.replaced, 'new');
  assert.equal(copy.lazy, 'read 1');
  assert.equal(copy.lazy, 'read 2');
  assert.equal(typeof Object.getOwnPropertyDescriptor(copy, 'lazy')!.get, 'function');
  assert.equal(Object.getOwnPropertyDescriptor(copy, 'lazy')!.enumerable, true);
  assert.equal(Object.hasOwn(copy, 'hidden'), false);
  assert.equal(Object.isFrozen(copy), true);
  assert.equal(base.replaced, 'old');
});

test('contextWith on a real call context: the override replaces requirePermission, everything else is the same', async () => {
  const ctx = createCallContext({ call: { id: 'c1', tool: 't', args: {} } });
  const requirePermission = async (): Promise<readonly string[]> => ['read'];
  const copy = contextWith(ctx, { requirePermission });
  assert.equal(copy.requirePermission, requirePermission);
  assert.equal(copy.signal, ctx.signal);
  assert.deepEqual(copy.call, ctx.call);
  assert.deepEqual(await copy.requirePermission({ subject: '/a', capabilities: ['read'] }), ['read']);
});

test('throwIfAborted: nothing before the abort; then the reason when it is an Error, else "the call was cancelled"', () => {
  const live = new AbortController();
  assert.equal(throwIfAborted(live.signal), undefined);
  const withError = new AbortController();
  const reason = new RangeError('stopped by the host');
  withError.abort(reason);
  assert.throws(
    () => throwIfAborted(withError.signal),
    (err: unknown) => err === reason,
  );
  const withString = new AbortController();
  withString.abort('bye');
  assert.throws(
    () => throwIfAborted(withString.signal),
    (err: unknown) => err instanceof Error && err.constructor === Error && err.message === 'the call was cancelled',
  );
});

test('implicationsOf: nothing is an empty Map; a Map or an object is copied with frozen lists, own keys only', () => {
  assert.deepEqual(implicationsOf(undefined), new Map());
  const fromObject = implicationsOf(
    Object.assign(Object.create({ inherited: ['x'] }), { write: ['read'], admin: ['write', 'exec'] }),
  );
  assert.deepEqual(
    [...fromObject],
    [
      ['write', ['read']],
      ['admin', ['write', 'exec']],
    ],
  );
  assert.equal(Object.isFrozen(fromObject.get('write')), true);
  const implied = ['read'];
  const fromMap = implicationsOf(new Map([['write', implied]]));
  implied.push('exec');
  assert.deepEqual([...fromMap], [['write', ['read']]]);
});

test('implicationsOf: every malformed implication is a TypeError naming the problem', () => {
  const cases: readonly [unknown, string][] = [
    [null, 'permissions: "implications" must be a Map or an object of capability -> implied capabilities, got null'],
    [
      ['write'],
      'permissions: "implications" must be a Map or an object of capability -> implied capabilities, got an array',
    ],
    [
      'write',
      'permissions: "implications" must be a Map or an object of capability -> implied capabilities, got a string',
    ],
    [new Map([['', ['read']]]), 'permissions: implication keys must be non-empty capability names, got ""'],
    [{ write: 'read' }, 'permissions: the implications of "write" must be an array of non-empty capability names'],
    [
      { write: ['read', ''] },
      'permissions: the implications of "write" must be an array of non-empty capability names',
    ],
    [{ write: ['read', 3] }, 'permissions: the implications of "write" must be an array of non-empty capability names'],
  ];
  for (const [init, message] of cases)
    assert.throws(() => implicationsOf(init as never), { name: 'TypeError', message }, String(message));
});

test('closureOf lists the grants first (each once, in order), then what they imply transitively, and survives cycles', () => {
  const implications = implicationsOf({ admin: ['write', 'exec'], write: ['read', 'admin'], read: [] });
  assert.deepEqual([...closureOf(implications, ['read', 'write', 'read'])], ['read', 'write', 'admin', 'exec']);
  assert.deepEqual([...closureOf(implications, ['admin'])], ['admin', 'write', 'exec', 'read']);
  assert.deepEqual([...closureOf(implications, ['other'])], ['other']);
  assert.deepEqual([...closureOf(implications, [])], []);
});

test('globToRegExp: "**" crosses "/", "*" and "?" do not, every other character is literal, the whole name must match', () => {
  const cases: readonly [string, string, boolean][] = [
    ['/tmp/**', '/tmp/a/b', true],
    ['/tmp/**', '/tmp/a\nb', true],
    ['/tmp/*', '/tmp/a', true],
    ['/tmp/*', '/tmp/a/b', false],
    ['/tmp/*', '/tmp/a\nb', true],
    ['/tmp/?', '/tmp/a', true],
    ['/tmp/?', '/tmp/ab', false],
    ['/tmp/?', '/tmp//', false],
    ['a.b', 'a.b', true],
    ['a.b', 'axb', false],
    ['(a)+[b]{1}|c$^\\', '(a)+[b]{1}|c$^\\', true],
    ['fs_*', 'fs_read', true],
    ['fs_*', 'x_fs_read', false],
    ['fs_*', 'fs_read_', true],
    ['read', 'read_file', false],
  ];
  for (const [glob, name, matches] of cases)
    assert.equal(globToRegExp(glob).test(name), matches, `${glob} against ${JSON.stringify(name)}`);
  assert.equal(globToRegExp('/a/**').source, '^\\/a\\/.*$');
  assert.equal(globToRegExp('a*?').source, '^a[^/]*[^/]$');
  assert.equal(globToRegExp('x').flags, 's');
});

test('matcherOf: no pattern matches everything; a RegExp loses its g and y flags so it keeps no state; anything else is a TypeError', () => {
  assert.equal(matcherOf(undefined, 'x')('anything'), true);
  const sticky = matcherOf(/fs_/gy, 'x');
  assert.deepEqual([sticky('fs_a'), sticky('fs_a'), sticky('fs_b')], [true, true, true]);
  assert.equal(matcherOf(/FS_/i, 'x')('fs_a'), true);
  assert.equal(matcherOf('fs_*', 'x')('fs_a'), true);
  assert.equal(matcherOf('fs_*', 'x')('io_a'), false);
  assert.throws(() => matcherOf(3 as never, 'permissions: rule 1: "tool"'), {
    name: 'TypeError',
    message: 'permissions: rule 1: "tool" must be a glob string or a RegExp, got a number',
  });
});

test('normalisedPathSubject: absolute paths only, no NUL, "." and ".." resolved, repeated and trailing "/" dropped, "/" stays', () => {
  const cases: readonly [string, string | undefined][] = [
    ['/srv/../etc/passwd', '/etc/passwd'],
    ['//etc//passwd/', '/etc/passwd'],
    ['/etc/./passwd', '/etc/passwd'],
    ['/../..', '/'],
    ['/', '/'],
    ['etc/passwd', undefined],
    ['./etc', undefined],
    ['/etc/pa\0sswd', undefined],
    ['/a\\b', '/a\\b'],
  ];
  for (const [subject, normal] of cases) assert.equal(normalisedPathSubject(subject), normal, JSON.stringify(subject));
});

test('pathMatcherOf: the glob must be an absolute path without "." or ".." segments; "//" and a trailing "/" are dropped; it tests resolved paths', () => {
  const exact = { caseSensitive: true, wholeSegments: false };
  assert.throws(() => pathMatcherOf('etc/**', 'permissions: rule 2: "path"', exact), {
    name: 'TypeError',
    message: 'permissions: rule 2: "path" must be an absolute path glob such as "/etc/**", got "etc/**"',
  });
  assert.throws(() => pathMatcherOf(7, 'permissions: rule 2: "path"', exact), {
    name: 'TypeError',
    message: 'permissions: rule 2: "path" must be an absolute path glob such as "/etc/**", got a number',
  });
  assert.throws(() => pathMatcherOf('/a/../**', 'p', exact), {
    name: 'TypeError',
    message: 'p "/a/../**" has a "." or ".." segment: write the path it stands for (path rules match resolved paths)',
  });
  assert.throws(() => pathMatcherOf('/etc/./passwd', 'p', exact), { message: /has a "\." or "\.\." segment/ });
  assert.throws(() => pathMatcherOf('/etc\0/**', 'p', exact), { message: 'p "/etc\\u0000/**" holds a NUL byte' });
  assert.throws(() => pathMatcherOf('/etc/\uD800', 'p', exact), {
    message: 'p "/etc/\\ud800" holds a lone surrogate (it is not well-formed Unicode)',
  });
  const tree = pathMatcherOf('/etc/**', 'p', exact);
  assert.deepEqual(['/etc/passwd', '/etc/a/b', '/ETC/passwd', '/etc', '/etcx'].map(tree), [
    true,
    true,
    false,
    false,
    false,
  ]);
  const wide = pathMatcherOf('/etc/**', 'p', { caseSensitive: true, wholeSegments: true });
  assert.deepEqual(['/etc/passwd', '/etc', '/etcx', '/'].map(wide), [true, true, false, false]);
  const middle = pathMatcherOf('/a/**/b', 'p', { caseSensitive: true, wholeSegments: true });
  assert.deepEqual(['/a/b', '/a/x/b', '/a/x/y/b', '/a/xb', '/ab'].map(middle), [true, true, true, false, false]);
  const file = pathMatcherOf('//etc//passwd/', 'p', exact);
  assert.deepEqual(['/etc/passwd', '/etc/passwd2'].map(file), [true, false]);
  const anyCase = pathMatcherOf('/etc/*', 'p', { caseSensitive: false, wholeSegments: false });
  assert.deepEqual(['/ETC/Passwd', '/etc/a\nb', '/etc/a/b'].map(anyCase), [true, true, false]);
  // Without case, canonically equivalent spellings match each other too (a composed and a decomposed é).
  const accented = pathMatcherOf('/caf\u00e9/**', 'p', { caseSensitive: false, wholeSegments: true });
  assert.deepEqual(['/cafe\u0301/x', '/CAF\u00c9', '/cafe/x'].map(accented), [true, true, false]);
  const accentedExact = pathMatcherOf('/caf\u00e9/**', 'p', exact);
  assert.deepEqual(['/cafe\u0301/x', '/caf\u00e9/x'].map(accentedExact), [false, true]);
  const root = pathMatcherOf('/', 'p', exact);
  assert.deepEqual(['/', '/a'].map(root), [true, false]);
  const everything = pathMatcherOf('/**', 'p', { caseSensitive: false, wholeSegments: true });
  assert.deepEqual(['/', '/a', '/a/b'].map(everything), [true, true, true]);
});

test('subjectsOf: a string is one subject, an array is kept; a throw or anything else fails with the value described', () => {
  const requirement = (subject: (args: never) => unknown): Requirement => ({
    capabilities: ['read'],
    subject: subject as never,
  });
  assert.deepEqual(
    subjectsOf(
      requirement(() => '/a'),
      {},
    ),
    ['/a'],
  );
  assert.deepEqual(
    subjectsOf(
      requirement(() => ['/a', '/b']),
      {},
    ),
    ['/a', '/b'],
  );
  assert.deepEqual(
    subjectsOf(
      requirement((args: { p: string }) => args.p),
      { p: '/p' },
    ),
    ['/p'],
  );
  const failures: readonly [() => unknown, string][] = [
    [
      () => {
        throw new Error('no path');
      },
      'cannot tell the permission subject: no path',
    ],
    [
      () => {
        throw 'bare';
      },
      'cannot tell the permission subject: bare',
    ],
    [
      () => null,
      'cannot tell the permission subject: subject() must return a non-empty string or a non-empty array of them, got null',
    ],
    [
      () => undefined,
      'cannot tell the permission subject: subject() must return a non-empty string or a non-empty array of them, got undefined',
    ],
    [
      () => '',
      'cannot tell the permission subject: subject() must return a non-empty string or a non-empty array of them, got ""',
    ],
    [
      () => [],
      'cannot tell the permission subject: subject() must return a non-empty string or a non-empty array of them, got an array of 0',
    ],
    [
      () => ['/a', ''],
      'cannot tell the permission subject: subject() must return a non-empty string or a non-empty array of them, got an array of 2',
    ],
    [
      () => ['/a', 3],
      'cannot tell the permission subject: subject() must return a non-empty string or a non-empty array of them, got an array of 2',
    ],
    [
      () => 5,
      'cannot tell the permission subject: subject() must return a non-empty string or a non-empty array of them, got number',
    ],
    [
      () => ({ path: '/a' }),
      'cannot tell the permission subject: subject() must return a non-empty string or a non-empty array of them, got object',
    ],
  ];
  for (const [subject, message] of failures) {
    assert.throws(
      () => subjectsOf(requirement(subject), {}),
      (err: unknown) =>
        err instanceof InvalidArgumentsError &&
        err.message === `invalid arguments: ${message}` &&
        err.problems[0]!.pointer === '',
      message,
    );
  }
});

test('requestOf: one unlabelled subject has no "subjects"; a label or several subjects list them all; a reason only when given', () => {
  const base = { capabilities: ['read', 'write'], subject: () => '/a' };
  assert.deepEqual(requestOf(base, ['/a']), { subject: '/a', capabilities: ['read', 'write'] });
  assert.deepEqual(requestOf({ ...base, label: 'source file' }, ['/a']), {
    subject: '/a',
    subjects: [{ label: 'source file', subject: '/a' }],
    capabilities: ['read', 'write'],
  });
  assert.deepEqual(requestOf({ ...base, reason: 'copy' }, ['/a', '/b']), {
    subject: '/a',
    subjects: [
      { label: '', subject: '/a' },
      { label: '', subject: '/b' },
    ],
    capabilities: ['read', 'write'],
    reason: 'copy',
  });
});

test('requireEveryThrough: a grant with every capability resolves it; otherwise the missing ones are denied on the first subject', async () => {
  const ctxGranting = (granted: readonly string[]) =>
    createCallContext({ call: { id: 'c', tool: 't', args: {} }, requirePermission: async () => granted });
  const request = { subject: '/a', subjects: [{ label: '', subject: '/b' }], capabilities: ['read', 'write', 'exec'] };
  assert.deepEqual(await requireEveryThrough(ctxGranting(['exec', 'write', 'read']))(request), [
    'exec',
    'write',
    'read',
  ]);
  const denied = await requireEveryThrough(ctxGranting(['write']))(request).then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.ok(denied instanceof PermissionDeniedError);
  assert.deepEqual(denied.denials, [{ subject: '/a', capabilities: ['read', 'exec'] }]);
  assert.equal(denied.message, 'permission denied: read, exec on "/a"');
});

test('checkDeclared checks each requirement in order, each for all its subjects, and stops at the first refusal', async () => {
  const asked: unknown[] = [];
  const requireEvery = async (request: PermissionRequest): Promise<readonly string[]> => {
    asked.push(request);
    if (request.capabilities.includes('exec'))
      throw new PermissionDeniedError([{ subject: request.subject, capabilities: ['exec'] }]);
    return request.capabilities;
  };
  const requirements: Requirement[] = [
    { capabilities: ['read'], subject: (args: { from: string }) => args.from, label: 'source' },
    { capabilities: ['write'], subject: (args: { to: string[] }) => args.to },
    { capabilities: ['exec'], subject: () => '/bin/sh' },
    { capabilities: ['never'], subject: () => '/never' },
  ];
  await assert.rejects(checkDeclared(requirements, { from: '/a', to: ['/b', '/c'] }, requireEvery), {
    message: 'permission denied: exec on "/bin/sh"',
  });
  assert.deepEqual(asked, [
    { subject: '/a', subjects: [{ label: 'source', subject: '/a' }], capabilities: ['read'] },
    {
      subject: '/b',
      subjects: [
        { label: '', subject: '/b' },
        { label: '', subject: '/c' },
      ],
      capabilities: ['write'],
    },
    { subject: '/bin/sh', capabilities: ['exec'] },
  ]);
  assert.equal(await checkDeclared([], {}, requireEvery), undefined);
});
