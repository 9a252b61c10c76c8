import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { posix } from 'node:path';
import fc from 'fast-check';
import { IsString } from 'class-validator';
import {
  createCallContext,
  createPolicy,
  resolvePathSubject,
  type PermissionRule,
  type PermissionQuestion,
} from '../src/runtime/index.js';
import { Requires, Tool, type CallContext, type PermissionRequest } from '../src/index.js';
import { throughCore, type CoreRunner } from './support/core-tools.js';
import { pathReaders } from './support/path-tools.js';

/*
 * Path subjects and path rules (issue 20, item 1): which subjects are paths, how they are resolved
 * before a rule sees them, what a deny path rule covers, and what happens to a path that cannot be
 * resolved. In process, through the policy and the call core; the same attacks over the wire are
 * in robust-paths.test.ts. Set PATH_PROPERTY_SEED to run the property tests with another seed.
 */

const SEED = Number(process.env.PATH_PROPERTY_SEED ?? 0x9a7b5);
const BASE = '/srv/app/work';
const SYSTEM: PermissionRule = { effect: 'deny', path: '/etc/**', reason: 'system files' };

const quiet = { log: () => undefined };

test('resolvePathSubject: lexical POSIX resolution against a base; NUL, lone surrogates and a relative base cannot be resolved', () => {
  const cases: readonly [string, string, string | undefined][] = [
    ['../../../../etc/passwd', BASE, '/etc/passwd'],
    ['../../../../../../../../etc/passwd', BASE, '/etc/passwd'],
    ['notes/./a.txt', BASE, '/srv/app/work/notes/a.txt'],
    ['//etc//passwd/', BASE, '/etc/passwd'],
    ['/etc/', BASE, '/etc'],
    ['.', BASE, BASE],
    ['~/x', BASE, '/srv/app/work/~/x'],
    ['..\\..\\etc\\passwd', BASE, '/srv/app/work/..\\..\\etc\\passwd'],
    ['C:\\Windows', BASE, '/srv/app/work/C:\\Windows'],
    ['/etc/passwd\0', BASE, undefined],
    ['/etc/\uD800', BASE, undefined],
    ['/etc/\uD83D\uDE00', BASE, '/etc/\uD83D\uDE00'],
    ['a', 'srv', undefined],
    ['a', '/srv\0', undefined],
  ];
  for (const [subject, base, resolved] of cases)
    assert.equal(resolvePathSubject(subject, base), resolved, `${JSON.stringify(subject)} against ${base}`);
});

test('a deny path rule covers the tree and its root, in every spelling, resolved against pathBase; an unresolvable path is denied', () => {
  const policy = createPolicy({ pathBase: BASE, rules: [SYSTEM, { effect: 'allow' }] });
  const denied = { effect: 'deny', source: 'rule', reason: 'system files' };
  const cases: readonly [string, object][] = [
    ['/etc/passwd', denied],
    ['../../../../etc/passwd', denied],
    ['../../../etc/shadow', denied],
    ['/etc', denied],
    ['/etc/', denied],
    ['//etc', denied],
    ['/srv/../etc/passwd', denied],
    ['/etc/./passwd/', denied],
    ['/ETC/Passwd', denied],
    ['/Etc', denied],
    ['/etc/passwd\0', { effect: 'deny', source: 'rule', reason: 'the path cannot be resolved: it holds a NUL byte' }],
    [
      '/etc/pass\uDC00wd',
      {
        effect: 'deny',
        source: 'rule',
        reason: 'the path cannot be resolved: it holds a lone surrogate (it is not well-formed Unicode)',
      },
    ],
    ['notes.txt', { effect: 'allow', source: 'rule' }],
    ['/etcetera/passwd', { effect: 'allow', source: 'rule' }],
    // Other names: a backslash is an ordinary character (POSIX), and lookalikes are other letters.
    ['\\etc\\passwd', { effect: 'allow', source: 'rule' }],
    ['/\u0435tc/passwd', { effect: 'allow', source: 'rule' }],
    ['/etc\uFF0Fpasswd', { effect: 'allow', source: 'rule' }],
  ];
  for (const [subject, verdict] of cases)
    assert.deepEqual(policy.check('read_file', subject, 'read'), verdict, JSON.stringify(subject));
});

test('a deny path rule ignores case and Unicode normalisation form; an allow path rule respects both and never covers its root', () => {
  const policy = createPolicy({
    rules: [
      { effect: 'deny', path: '/caf\u00e9/**', reason: 'cafe' },
      { effect: 'deny', path: '/re\u0301sume\u0301/**', reason: 'resume' },
      { effect: 'allow', path: '/work/**' },
      { effect: 'allow', path: '/na\u00efve/**' },
    ],
  });
  assert.deepEqual(policy.check('t', '/cafe\u0301/menu', 'read'), { effect: 'deny', source: 'rule', reason: 'cafe' });
  assert.deepEqual(policy.check('t', '/CAF\u00c9', 'read'), { effect: 'deny', source: 'rule', reason: 'cafe' });
  assert.deepEqual(policy.check('t', '/r\u00e9sum\u00e9/cv', 'read'), {
    effect: 'deny',
    source: 'rule',
    reason: 'resume',
  });
  assert.deepEqual(policy.check('t', '/work/a', 'read'), { effect: 'allow', source: 'rule' });
  assert.equal(policy.check('t', '/work', 'read'), undefined);
  assert.equal(policy.check('t', '/WORK/a', 'read'), undefined);
  assert.equal(policy.check('t', '/nai\u0308ve/a', 'read'), undefined);
  // A NUL byte is denied by an allow path rule too: it is never matched, whatever the rule says.
  assert.deepEqual(policy.check('t', '/work/a\0', 'read'), {
    effect: 'deny',
    source: 'rule',
    reason: 'the path cannot be resolved: it holds a NUL byte',
  });
  // Only where a path rule's tool and capabilities apply: a plain subject rule never resolves anything.
  const plain = createPolicy({ rules: [{ effect: 'deny', tool: 'rm', path: '/etc/**' }, { effect: 'allow' }] });
  assert.deepEqual(plain.check('cat', '/etc/passwd\0', 'read'), { effect: 'allow', source: 'rule' });
  assert.deepEqual(plain.check('rm', '/etc/passwd\0', 'read'), {
    effect: 'deny',
    source: 'rule',
    reason: 'the path cannot be resolved: it holds a NUL byte',
  });
});

test('pathBase defaults to process.cwd(), read at each check', () => {
  const policy = createPolicy({ rules: [SYSTEM, { effect: 'allow' }] });
  const before = process.cwd();
  const dir = realpathSync(tmpdir());
  const up = (from: string) => '../'.repeat(from.split('/').length - 1);
  try {
    process.chdir(dir);
    assert.equal(policy.pathBase, undefined);
    assert.equal(policy.basePath(), dir);
    assert.equal(policy.check('t', `${up(dir)}etc/passwd`, 'read')?.effect, 'deny');
    assert.equal(policy.check('t', 'etc/passwd', 'read')?.effect, dir === '/' ? 'deny' : 'allow');
    process.chdir('/');
    assert.equal(policy.check('t', 'etc/passwd', 'read')?.effect, 'deny');
  } finally {
    process.chdir(before);
  }
});

test('pathBase and log are checked when the policy is built', () => {
  for (const [pathBase, got] of [
    ['srv', '"srv"'],
    ['', '""'],
    ['/srv\0', '"/srv\\u0000"'],
    [7, 'a number'],
  ] as const) {
    assert.throws(() => createPolicy({ pathBase: pathBase as never }), {
      name: 'TypeError',
      message: `permissions: "pathBase" must be an absolute path such as "/srv/workspace", got ${got}`,
    });
  }
  assert.throws(() => createPolicy({ log: 'stderr' as never }), {
    name: 'TypeError',
    message: 'permissions: "log" must be a function, got a string',
  });
  assert.equal(createPolicy({ pathBase: '/srv/ws' }).pathBase, '/srv/ws');
});

test('a path glob must be absolute, without "." or ".." segments; "//" and a trailing "/" are dropped', () => {
  assert.throws(() => createPolicy({ rules: [{ effect: 'deny', path: '/srv/../etc/**' }] }), {
    name: 'TypeError',
    message:
      'permissions: rule 1: "path" "/srv/../etc/**" has a "." or ".." segment: write the path it stands for (path rules match resolved paths)',
  });
  assert.throws(() => createPolicy({ rules: [{ effect: 'deny', path: '/etc\0/**' }] }), {
    message: 'permissions: rule 1: "path" "/etc\\u0000/**" holds a NUL byte',
  });
  assert.throws(() => createPolicy({ rules: [{ effect: 'deny', path: '~/.ssh/**' }] }), {
    message: 'permissions: rule 1: "path" must be an absolute path glob such as "/etc/**", got "~/.ssh/**"',
  });
  const policy = createPolicy({ rules: [{ effect: 'deny', path: '//etc//' }] });
  assert.equal(policy.check('t', '/etc', 'read')?.effect, 'deny');
  assert.equal(policy.check('t', '/etc/passwd', 'read'), undefined);
});

test('a deny rule on a subject glob that reads like a path is refused, naming the path form; an allow rule is built with a warning', () => {
  const refusals: readonly [string, string][] = [
    ['/etc/**', '{ path: "/etc/**" }'],
    ['\\\\server\\share\\**', '"path" with an absolute glob'],
    ['./secrets/**', '"path" with an absolute glob'],
    ['../secrets/**', '"path" with an absolute glob'],
    ['~/.ssh/**', '"path" with an absolute glob'],
    ['C:\\Windows\\**', '"path" with an absolute glob'],
    ['c:/windows/**', '"path" with an absolute glob'],
  ];
  for (const [glob, form] of refusals) {
    const message = `permissions: rule 2: "subject" ${JSON.stringify(glob)} looks like a path, but a subject glob matches the raw string, so other spellings of the same path ("..", "//", a relative path, case) step around this deny: write ${form} to match the resolved path, or a RegExp to match the raw string on purpose`;
    assert.throws(
      () =>
        createPolicy({
          rules: [
            { effect: 'allow', tool: 'x' },
            { effect: 'deny', subject: glob },
          ],
        }),
      {
        name: 'TypeError',
        message,
      },
    );
    assert.throws(
      () => createPolicy({ rules: [{ effect: 'allow', tool: 'x' }] }).addRule({ effect: 'deny', subject: glob }),
      {
        message,
      },
    );
  }
  const warnings: string[] = [];
  const policy = createPolicy({
    log: (message) => warnings.push(message),
    rules: [
      { effect: 'allow', subject: '/work/**' },
      { effect: 'allow', subject: 'fs_*' },
      { effect: 'allow', subject: 'https://example.com/**' },
      { effect: 'allow', subject: 'a:b' },
      { effect: 'deny', subject: /^\/etc\// },
      { effect: 'deny', subject: 'db:users' },
    ],
  });
  policy.addRule({ effect: 'allow', subject: '~/notes/*' });
  assert.deepEqual(warnings, [
    'permissions: rule 1: "subject" "/work/**" looks like a path, but a subject glob matches the raw string, so a spelling with ".." that leads out of it matches it too, unless the tool marks its subjects as paths: write { path: "/work/**" } to match the resolved path, or a RegExp to match the raw string on purpose',
    'permissions: rule 7: "subject" "~/notes/*" looks like a path, but a subject glob matches the raw string, so a spelling with ".." that leads out of it matches it too, unless the tool marks its subjects as paths: write "path" with an absolute glob to match the resolved path, or a RegExp to match the raw string on purpose',
  ]);
  // The warned rule still works on what it names (and on marked subjects, which arrive resolved).
  assert.deepEqual(policy.check('t', '/work/a', 'read'), { effect: 'allow', source: 'rule' });
});

/** A context whose elicitation records each question and answers `answer` (default: deny once). */
function asking(answer = 'deny_once') {
  const asked: string[] = [];
  const ctx = (tool: string, args: unknown): CallContext =>
    createCallContext({
      call: { id: '1', tool, args },
      elicit: async (question) => {
        asked.push(question.message);
        return { action: 'accept', content: { decision: answer } };
      },
    });
  return { asked, ctx };
}

/** The readers of `pathReaders`, compiled once for the file; `readers` empties what they noted. */
const REACHED: string[] = [];
const READERS = pathReaders(REACHED);

/** The readers prepared under a policy made with `options`, and what they noted (nothing yet). */
function readers(options: Parameters<typeof createPolicy>[0]): {
  reached: string[];
  tools: Map<string, CoreRunner>;
} {
  REACHED.length = 0;
  const policy = createPolicy({ ...quiet, ...options });
  const tools = new Map(READERS.map((tool) => [tool.name, throughCore(tool, { policy })]));
  return { reached: REACHED, tools };
}

async function outcome(runner: CoreRunner, args: unknown, ctx: CallContext): Promise<string> {
  try {
    const result = await runner.execute(args, ctx);
    return (result.content[0] as { text: string }).text;
  } catch (error) {
    return (error as Error).message;
  }
}

test('a marked subject reaches rules, questions and the record resolved; an unmarked one only through path rules', async () => {
  const { reached, tools } = readers({ pathBase: BASE, rules: [SYSTEM] });
  const user = asking('allow_once');
  for (const name of ['read_declared', 'read_imperative']) {
    const result = await tools.get(name)!.execute({ path: 'notes/../a.txt' }, user.ctx(name, {}));
    assert.deepEqual(result.record, {
      ns: 'toolwright:permissions',
      data: {
        decisions: [{ subject: '/srv/app/work/a.txt', capabilities: ['read'], decision: 'allow_once' }],
        grants: [{ subjects: ['/srv/app/work/a.txt'], capabilities: ['read'], granted: ['read'] }],
      },
    });
  }
  await tools.get('read_plain')!.execute({ path: 'notes/../a.txt' }, user.ctx('read_plain', {}));
  assert.deepEqual(user.asked, [
    'Allow the tool "read_declared" to use read on "/srv/app/work/a.txt"?',
    'Allow the tool "read_imperative" to use read on "/srv/app/work/a.txt"?',
    'Allow the tool "read_plain" to use read on "notes/../a.txt"?',
  ]);
  assert.deepEqual(reached, [
    'read_declared notes/../a.txt',
    'read_imperative notes/../a.txt',
    'read_plain notes/../a.txt',
  ]);
});

test('the attacks of issue 20 never reach the tool nor the user, whether an allow rule follows or the policy asks', async () => {
  const expected: Record<string, readonly string[]> = {
    read_declared: [
      'permission denied: read on "/etc/passwd": system files',
      'invalid arguments: cannot tell the permission subject: the path "/etc/passwd\\u0000" cannot be resolved: it holds a NUL byte',
      'permission denied: read on "/etc": system files',
      'permission denied: read on "/etc": system files',
    ],
    read_imperative: [
      'permission denied: read on "/etc/passwd": system files',
      'permission denied: read on "/etc/passwd\\u0000": the path cannot be resolved: it holds a NUL byte',
      'permission denied: read on "/etc": system files',
      'permission denied: read on "/etc": system files',
    ],
    read_plain: [
      'permission denied: read on "../../../../etc/passwd": system files',
      'permission denied: read on "/etc/passwd\\u0000": the path cannot be resolved: it holds a NUL byte',
      'permission denied: read on "/etc": system files',
      'permission denied: read on "/etc/": system files',
    ],
  };
  for (const rules of [[SYSTEM, { effect: 'allow' } as const], [SYSTEM]]) {
    const { reached, tools } = readers({ pathBase: BASE, rules });
    const user = asking('allow_once');
    for (const [name, runner] of tools) {
      const got: string[] = [];
      for (const path of ['../../../../etc/passwd', '/etc/passwd\0', '/etc', '/etc/'])
        got.push(await outcome(runner, { path }, user.ctx(name, { path })));
      assert.deepEqual(got, expected[name], `${name} with ${rules.length} rules`);
    }
    assert.deepEqual(reached, []);
    assert.deepEqual(user.asked, []);
  }
});

test('a path requirement names its own base; the subjects of one request are resolved, then checked once each', async () => {
  const seen: PermissionQuestion[] = [];
  const policy = createPolicy({
    ...quiet,
    pathBase: BASE,
    ask: (question) => {
      seen.push(question);
      return { decision: 'allow_once' };
    },
  });
  const rooted = throughCore(
    {
      name: 'rooted',
      description: 'Reads under its own root',
      requires: [{ capabilities: ['read'], subject: (a: { path: string }) => a.path, path: { base: '/data/root' } }],
      execute: async () => 'ok',
    },
    { policy },
  );
  await rooted.execute({ path: '../x' }, createCallContext({ call: { id: '1', tool: 'rooted', args: {} } }));
  const renamer = throughCore(
    {
      name: 'rename',
      description: 'Renames',
      async execute(args: unknown, ctx: CallContext) {
        const { from, to } = args as { from: string; to: string };
        return (
          await ctx.requirePermission({
            subject: from,
            subjects: [
              { label: 'source', subject: from },
              { label: 'target', subject: to },
            ],
            capabilities: ['write'],
            path: true,
          })
        ).join();
      },
    },
    { policy },
  );
  await renamer.execute({ from: 'a', to: './a/' }, createCallContext({ call: { id: '2', tool: 'rename', args: {} } }));
  assert.deepEqual(seen, [
    { tool: 'rooted', subject: '/data/x', capabilities: ['read'] },
    { tool: 'rename', subject: '/srv/app/work/a', label: 'source', capabilities: ['write'] },
  ]);
});

test('a malformed path marking is refused: @Requires at decoration, requirePermission as a TypeError, a hand-built requirement as invalid arguments', async () => {
  class Args {
    @IsString()
    path!: string;
  }
  for (const [path, shown] of [
    ['yes', '"yes"'],
    [{ base: 'rel' }, '{"base":"rel"}'],
    [{ base: '/a', extra: 1 }, '{"base":"/a","extra":1}'],
    [{}, '{}'],
  ] as const) {
    assert.throws(
      () => {
        @Tool({ name: 'x', description: 'x', args: Args })
        @Requires({ capabilities: ['read'], subject: (a: Args) => a.path, path: path as never })
        class X {
          execute() {
            return 'x';
          }
        }
        return X;
      },
      {
        name: 'DecoratorError',
        message: `@Requires() on class X: "path" must be true, false or { base: "/absolute/path" } (what relative subjects are resolved against), got ${shown}`,
      },
    );
  }
  const policy = createPolicy({ rules: [{ effect: 'allow' }] });
  const asker = (request: Partial<PermissionRequest>) =>
    throughCore(
      {
        name: 'asker',
        description: 'Asks',
        execute: async (_args, ctx) =>
          (await ctx.requirePermission({ subject: 'a', capabilities: ['read'], ...request } as never)).join(),
      },
      { policy },
    ).execute({}, createCallContext({ call: { id: '1', tool: 'asker', args: {} } }));
  await assert.rejects(asker({ path: 'yes' as never }), {
    name: 'TypeError',
    message: 'requirePermission: "path" it must be true, false or { base: "<absolute path>" }, got a string',
  });
  await assert.rejects(asker({ path: { base: 'rel' } }), {
    name: 'TypeError',
    message: 'requirePermission: "path" its base "rel" is not an absolute path',
  });
  // A subject not marked as a path is a plain string: nothing resolves it, and an allow-all rule allows it.
  assert.deepEqual((await asker({ path: false, subject: '/x\0' })).content, [{ type: 'text', text: 'read' }]);
  const handBuilt = throughCore(
    {
      name: 'hand',
      description: 'Hand-built',
      requires: [{ capabilities: ['read'], subject: () => 'a', path: { base: 'rel' } }],
      execute: async () => 'ok',
    },
    { policy },
  );
  await assert.rejects(handBuilt.execute({}, createCallContext({ call: { id: '1', tool: 'hand', args: {} } })), {
    name: 'InvalidArgumentsError',
    message:
      'invalid arguments: cannot tell the permission subject: the requirement\'s "path" cannot be used: its base "rel" is not an absolute path',
  });
});

test("without a policy, the host's own requirePermission receives path subjects resolved against process.cwd() or the requirement's base", async () => {
  const received: PermissionRequest[] = [];
  const ctx = createCallContext({
    call: { id: '1', tool: 'read_declared', args: {} },
    requirePermission: async (request) => {
      received.push(request);
      return request.capabilities;
    },
  });
  const [declared] = pathReaders([]);
  const runner = throughCore(declared!);
  assert.deepEqual((await runner.execute({ path: 'a/../b' }, ctx)).content, [{ type: 'text', text: 'read a/../b' }]);
  assert.deepEqual(received, [{ subject: posix.resolve(process.cwd(), 'b'), capabilities: ['read'], path: true }]);
  await assert.rejects(runner.execute({ path: 'b\0' }, ctx), {
    name: 'InvalidArgumentsError',
    message:
      'invalid arguments: cannot tell the permission subject: the path "b\\u0000" cannot be resolved: it holds a NUL byte',
  });
  assert.equal(received.length, 1);
});

/*
 * The property: whatever the spelling, a subject that resolves lexically inside the denied tree
 * (its root included, any case) is denied, one that cannot be resolved is denied, and one that
 * resolves outside it is left to the next rule (the allow). The oracle below resolves by its own
 * segment walk, not with node:path.
 */

const SEGMENT_CHARS = ['a', 'b', 'e', 'T', 'c', '1', '.', '-', '_', '\u00e9', 'Z'];
const segment = fc
  .array(fc.constantFrom(...SEGMENT_CHARS), { minLength: 1, maxLength: 5 })
  .map((chars) => chars.join(''))
  .filter((s) => s !== '.' && s !== '..');
const absolute = (segments: readonly string[]) => `/${segments.join('/')}`;

/** A spelling of `target` (an absolute path) as seen from `base`: one of many ways to name it, or a near miss. */
function spellingOf(base: readonly string[], target: readonly string[]) {
  return fc
    .record({
      relative: fc.boolean(),
      extraUps: fc.nat(3),
      detours: fc.array(fc.tuple(fc.nat(8), fc.constantFrom('./', 'x/../', '/', './/', 'zz/zz/../../')), {
        maxLength: 3,
      }),
      trailing: fc.constantFrom('', '/', '/.', '//'),
      caseFlips: fc.array(fc.nat(40), { maxLength: 4 }),
      decompose: fc.boolean(),
      // One spelling in four holds one odd character: a NUL, a lone surrogate, a lookalike of a
      // letter or of "/", a backslash (an ordinary character here), a no-break space, an accent.
      taint: fc.oneof(
        { weight: 3, arbitrary: fc.constant(null) },
        {
          weight: 1,
          arbitrary: fc.tuple(
            fc.nat(40),
            fc.constantFrom('\0', '\uD800', '\uDFFF', '\u0435', '\uFF0F', '\u2215', '\\', '\u00a0', 'e\u0301'),
          ),
        },
      ),
    })
    .map(({ relative, extraUps, detours, trailing, caseFlips, decompose, taint }) => {
      let spelled: string;
      if (relative) {
        // Climb from the base to the root (and beyond, which stays at the root), then walk down.
        spelled = '../'.repeat(base.length + extraUps) + target.join('/');
      } else {
        spelled = absolute(target);
      }
      for (const [at, detour] of detours) {
        const slashes = [...spelled.matchAll(/\//g)].map((m) => m.index!);
        if (slashes.length === 0) continue;
        const i = slashes[at % slashes.length]!;
        spelled = spelled.slice(0, i + 1) + detour + spelled.slice(i + 1);
      }
      spelled += trailing;
      const chars = [...spelled];
      for (const flip of caseFlips) {
        const i = flip % chars.length;
        chars[i] = chars[i] === chars[i]!.toUpperCase() ? chars[i]!.toLowerCase() : chars[i]!.toUpperCase();
      }
      spelled = chars.join('');
      if (decompose) spelled = spelled.normalize('NFD');
      if (taint !== null) {
        const [at, char] = taint;
        const i = at % (spelled.length + 1);
        spelled = spelled.slice(0, i) + char + spelled.slice(i);
      }
      return spelled;
    });
}

/** The oracle: `undefined` when `spelled` cannot name a file, else its segments resolved against `base`. */
function oracleSegments(base: readonly string[], spelled: string): string[] | undefined {
  if (spelled.includes('\0') || /[\uD800-\uDFFF]/.test(spelled.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '')))
    return undefined;
  const walk = spelled.startsWith('/') ? [] : [...base];
  for (const part of spelled.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') walk.pop();
    else walk.push(part);
  }
  return walk;
}

const fold = (s: string) => s.normalize('NFC').toLowerCase();
const inside = (tree: readonly string[], path: readonly string[]) =>
  path.length >= tree.length && tree.every((s, i) => fold(s) === fold(path[i]!));

const scenario = fc
  .record({
    base: fc.array(segment, { minLength: 1, maxLength: 4 }),
    tree: fc.array(segment, { minLength: 1, maxLength: 3 }),
    below: fc.array(segment, { maxLength: 3 }),
    elsewhere: fc.array(segment, { minLength: 1, maxLength: 4 }),
    near: fc.constantFrom(true, true, false),
  })
  .chain(({ base, tree, below, elsewhere, near }) => {
    // Two targets in three are in the tree (or are its root), the others anywhere.
    const target = near ? [...tree, ...below] : elsewhere;
    return fc.record({
      base: fc.constant(base),
      tree: fc.constant(tree),
      spelled: spellingOf(base, target),
    });
  });

test('property: every spelling that resolves inside a denied tree is denied, and none outside it (1,000 runs)', () => {
  fc.assert(
    fc.property(scenario, ({ base, tree, spelled }) => {
      const policy = createPolicy({
        pathBase: absolute(base),
        rules: [{ effect: 'deny', path: `${absolute(tree)}/**`, reason: 'tree' }, { effect: 'allow' }],
      });
      const resolved = oracleSegments(base, spelled);
      const effect = policy.check('t', spelled, 'read')?.effect;
      const expected = resolved === undefined || inside(tree, resolved) ? 'deny' : 'allow';
      assert.equal(effect, expected, `${JSON.stringify(spelled)} from ${absolute(base)}, tree ${absolute(tree)}`);
    }),
    { seed: SEED, numRuns: 1_000 },
  );
});

test('property: through the call core, a marked path inside a denied tree never reaches the tool (300 runs per reader)', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, async ({ base, tree, spelled }) => {
      const { reached, tools } = readers({
        pathBase: absolute(base),
        rules: [{ effect: 'deny', path: `${absolute(tree)}/**`, reason: 'tree' }, { effect: 'allow' }],
      });
      const resolved = oracleSegments(base, spelled);
      const blocked = resolved === undefined || inside(tree, resolved);
      for (const [name, runner] of tools) {
        const text = await outcome(
          runner,
          { path: spelled },
          createCallContext({ call: { id: '1', tool: name, args: {} } }),
        );
        if (blocked)
          assert.match(text, /^(permission denied|invalid arguments): /, `${name} ${JSON.stringify(spelled)}`);
        else assert.equal(text, `read ${spelled}`, `${name} ${JSON.stringify(spelled)}`);
      }
      assert.equal(reached.length, blocked ? 0 : tools.size);
    }),
    { seed: SEED, numRuns: 300 },
  );
});
