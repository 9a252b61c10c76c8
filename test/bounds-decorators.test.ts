import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MaxOutput, Requires, defineMaxOutput, defineRequires } from '../src/index.js';
import { getClaims } from '../src/compiler/index.js';

test('@MaxOutput records maxOutputChars; the twin does the same; bad values throw at once', () => {
  @MaxOutput({ chars: 500 })
  class Long {}
  assert.deepEqual(getClaims(Long), { maxOutputChars: 500 });
  class Plain {}
  defineMaxOutput(Plain, { chars: 10 });
  assert.equal(getClaims(Plain).maxOutputChars, 10);
  assert.throws(() => MaxOutput({ chars: 0 })(Plain), {
    name: 'DecoratorError',
    message: '@MaxOutput() on class Plain: "chars" must be a positive integer, got 0',
  });
  assert.throws(() => MaxOutput({ chars: '5' } as never)(Plain), {
    message: '@MaxOutput() on class Plain: "chars" must be a positive integer, got a string',
  });
  assert.throws(() => MaxOutput({ char: 5 } as never)(Plain), {
    message: '@MaxOutput() on class Plain: has no option "char" (known options: chars)',
  });
  assert.equal(getClaims(Plain).maxOutputChars, 10);
});

test('@Requires records requirements in source order; the twin appends', () => {
  const bySource = (a: { from: string }) => a.from;
  const byTarget = (a: { to: string }) => a.to;
  @Requires({ capabilities: ['read'], subject: bySource, label: 'source file' })
  @Requires({ capabilities: ['write'], subject: byTarget, reason: 'write the copy' })
  class Copy {}
  assert.deepEqual(getClaims(Copy).requires, [
    { capabilities: ['read'], subject: bySource, label: 'source file' },
    { capabilities: ['write'], subject: byTarget, reason: 'write the copy' },
  ]);
  defineRequires(Copy, { capabilities: ['exec'], subject: bySource });
  assert.deepEqual(
    getClaims(Copy).requires?.map((r) => r.capabilities),
    [['read'], ['write'], ['exec']],
  );
});

test('@Requires checks its options and names the class', () => {
  class WriteTool {}
  assert.throws(() => Requires({ capabilities: [], subject: (a: { p: string }) => a.p })(WriteTool), {
    name: 'DecoratorError',
    message:
      '@Requires() on class WriteTool: "capabilities" must be a non-empty array of capability names such as [\'write\'], got []',
  });
  assert.throws(() => Requires({ capabilities: ['write'], subject: 'path' } as never)(WriteTool), {
    message:
      '@Requires() on class WriteTool: "subject" must be a function of the arguments such as (args) => args.path, got a string',
  });
  assert.throws(() => defineRequires(WriteTool, { capabilities: ['write'], subject: () => 'x', label: 3 } as never), {
    message: '@Requires() on class WriteTool: "label" must be a string, got a number',
  });
  assert.deepEqual(getClaims(WriteTool), {});
  assert.throws(() => (Requires({ capabilities: ['w'], subject: () => 'x' }) as (...a: unknown[]) => void)({}, 'm'), {
    message: '@Requires() decorates a class, but it was applied to member Object.m',
  });
});
