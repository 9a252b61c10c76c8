import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, ValidateNested, IsArray } from 'class-validator';
import { Type } from 'class-transformer';
import {
  Complete,
  Description,
  Field,
  Prompt,
  ReadOnly,
  Requires,
  StaticResource,
  Timeout,
  compilePrompts,
  userMessage,
  type CallContext,
  type ContractPrompt,
} from '../src/index.js';
import { contextFor, invalidMessage, issuesOf } from './support/compile-helpers.js';

test('a prompt lists one argument per property of its arguments class, in order, with descriptions and required', async () => {
  class ReviewArgs {
    @Description('The code to review')
    @IsString()
    code!: string;

    @Field({ title: 'Language', description: 'Its language' })
    @IsIn(['ts', 'go'])
    language!: string;

    @IsOptional()
    @IsInt()
    maxComments?: number;

    @IsOptional()
    @IsBoolean()
    strict?: boolean;
  }
  @Prompt({ title: 'Code review', description: 'Review code', args: ReviewArgs })
  @Timeout(1000)
  class CodeReviewPrompt {
    messages(args: ReviewArgs, ctx: CallContext) {
      return [
        userMessage(
          `Review this ${args.language} code (${typeof args.maxComments} ${String(args.maxComments)}, ${String(args.strict)}, ${args instanceof ReviewArgs}, ${ctx.call.tool}):\n${args.code}`,
        ),
      ];
    }
    @Complete('code')
    snippets(value: string) {
      return [`${value}1`, `${value}2`];
    }
  }
  const [prompt] = compilePrompts([CodeReviewPrompt]);
  assert.ok(Object.isFrozen(prompt));
  const { get, complete, ...listed } = prompt as ContractPrompt & Record<string, unknown>;
  assert.equal(typeof get, 'function');
  assert.equal(typeof complete, 'function');
  assert.deepEqual(listed, {
    name: 'code_review',
    title: 'Code review',
    description: 'Review code',
    arguments: [
      { name: 'code', description: 'The code to review', required: true },
      { name: 'language', title: 'Language', description: 'Its language', required: true },
      { name: 'maxComments', required: false },
      { name: 'strict', required: false },
    ],
    timeoutMs: 1000,
  });
  const ctx = contextFor('code_review');
  assert.deepEqual(await prompt!.get({ code: 'x()', language: 'go', maxComments: '3', strict: 'true' }, ctx), [
    { role: 'user', content: { type: 'text', text: 'Review this go code (number 3, true, true, code_review):\nx()' } },
  ]);
  assert.equal(
    await invalidMessage(prompt!.get({ code: 'x', language: 'rust', maxComments: 'three' }, ctx)),
    'invalid arguments: /language: must be one of "ts", "go"; /maxComments: must be integer or null',
  );
  assert.equal(
    await invalidMessage(prompt!.get({ language: 'ts' }, ctx)),
    'invalid arguments: /: must have required property "code"',
  );
  assert.equal(
    await invalidMessage(prompt!.get({ code: 'x', language: 'ts', colour: 'red' }, ctx)),
    'invalid arguments: /: must NOT have additional property "colour"',
  );
  assert.deepEqual(await prompt!.complete!({ argument: 'code', value: 'f', arguments: {} }, ctx), ['f1', 'f2']);
  assert.deepEqual(await prompt!.complete!({ argument: 'language', value: 'G', arguments: {} }, ctx), ['go']);
  assert.deepEqual(await prompt!.complete!({ argument: 'strict', value: '', arguments: {} }, ctx), []);
});

test('a prompt without arguments lists none, accepts only none, and completes nothing', async () => {
  @Prompt({ name: 'greet', description: 'Say hello' })
  class Greeting {
    messages() {
      return 'Hello!';
    }
  }
  const [prompt] = compilePrompts([Greeting]);
  assert.deepEqual(prompt!.arguments, []);
  assert.equal(prompt!.complete, undefined);
  assert.equal(await prompt!.get({}, contextFor('greet')), 'Hello!');
  assert.equal(
    await invalidMessage(prompt!.get({ name: 'x' }, contextFor('greet'))),
    'invalid arguments: /: must NOT have additional property "name"',
  );
});

test('a class that is no prompt is missing-prompt-decorator; a blank description, no messages() and a bad name are refused', () => {
  class Plain {
    messages() {
      return '';
    }
  }
  @StaticResource({ uri: 'a:b' })
  class SomeResource {
    read() {
      return '';
    }
  }
  @Prompt({ description: ' ' })
  class BlankPrompt {}
  @Prompt({ description: 'd' })
  class My$Prompt {
    messages() {
      return '';
    }
  }
  assert.deepEqual(
    issuesOf(() => compilePrompts([Plain, SomeResource, BlankPrompt, My$Prompt, 'x'])),
    [
      {
        code: 'missing-prompt-decorator',
        className: 'Plain',
        message:
          "class Plain has no @Prompt(): add @Prompt({ description: '...' }) to it, or leave it out of compilePrompts()",
      },
      {
        code: 'missing-prompt-decorator',
        className: 'SomeResource',
        message:
          'class SomeResource has no @Prompt(): it is a resource (@StaticResource()): pass it to compileResources()',
      },
      {
        code: 'missing-description',
        className: 'BlankPrompt',
        member: 'description',
        message:
          "class BlankPrompt: @Prompt() has a blank description: tell the user what the prompt is for in @Prompt({ description: '...' })",
      },
      {
        code: 'missing-messages',
        className: 'BlankPrompt',
        member: 'messages',
        message:
          "class BlankPrompt has no messages() method: add messages(args, ctx) returning the prompt's messages (text, or userMessage(...) and assistantMessage(...))",
      },
      {
        code: 'invalid-name',
        className: 'My$Prompt',
        message:
          'class My$Prompt: the prompt name "my$" inferred from the class name is not a valid prompt name (1 to 128 of A-Z a-z 0-9 _ - .): set @Prompt({ name: \'...\' })',
      },
      {
        code: 'missing-prompt-decorator',
        className: '',
        message:
          'item 4 is not a prompt: expected a @Prompt() class, an instance of one, or a contract prompt object with name, description and get, got a string',
      },
    ],
  );
});

test('an argument an MCP prompt argument (a named string) cannot carry is invalid-prompt-argument, one issue each', () => {
  class Point {
    @IsInt()
    x!: number;
  }
  class Args {
    @IsString()
    fine!: string;

    @ValidateNested()
    @Type(() => Point)
    point!: Point;

    @IsArray()
    @IsString({ each: true })
    tags!: string[];
  }
  @Prompt({ description: 'd', args: Args })
  class Shapes {
    messages() {
      return '';
    }
  }
  assert.deepEqual(
    issuesOf(() => compilePrompts([Shapes])),
    [
      {
        code: 'invalid-prompt-argument',
        className: 'Shapes',
        member: 'point',
        message:
          'class Shapes: Args.point is an object (a nested class), which an MCP prompt argument (arguments are named strings) cannot carry: make it a string, a number, a boolean or a string enum (@IsString(), @IsInt(), @IsBoolean(), @IsIn([...]))',
      },
      {
        code: 'invalid-prompt-argument',
        className: 'Shapes',
        member: 'tags',
        message:
          'class Shapes: Args.tags is an array, which an MCP prompt argument (arguments are named strings) cannot carry: make it a string, a number, a boolean or a string enum (@IsString(), @IsInt(), @IsBoolean(), @IsIn([...]))',
      },
    ],
  );
});

test('a completer must name an argument; a tool-only claim is refused; @Requires carries over', () => {
  class Args {
    @IsString()
    topic!: string;
  }
  @Prompt({ description: 'd', args: Args })
  @ReadOnly()
  class Wrong {
    messages() {
      return '';
    }
    @Complete('subject')
    subjects() {
      return [];
    }
  }
  assert.deepEqual(
    issuesOf(() => compilePrompts([Wrong])),
    [
      {
        code: 'not-applicable-claim',
        className: 'Wrong',
        message:
          'class Wrong: @ReadOnly(), @Destructive(), @Idempotent() and @OpenWorld() are tool hints, which means nothing for a prompt: remove it',
      },
      {
        code: 'unknown-completion-argument',
        className: 'Wrong',
        member: 'subjects',
        message:
          'class Wrong: @Complete("subject") on subjects() names no argument of it (its arguments: topic): name one of them',
      },
    ],
  );
  @Prompt({ description: 'd', args: Args })
  @Requires({ capabilities: ['read'], subject: (args: Args) => args.topic })
  class Guarded {
    messages() {
      return '';
    }
  }
  assert.deepEqual(
    compilePrompts([Guarded])[0]!.requires?.map((r) => r.capabilities),
    [['read']],
  );
});

test('two prompts with one name are duplicate-name; a hand-built prompt is checked and kept frozen', async () => {
  @Prompt({ name: 'p', description: 'd' })
  class One {
    messages() {
      return '';
    }
  }
  const handBuilt = { name: 'p', description: 'd', get: async () => 'hi' };
  assert.deepEqual(
    issuesOf(() => compilePrompts([One, handBuilt])),
    [
      {
        code: 'duplicate-name',
        className: '',
        message:
          'prompt name "p" is used 2 times (class One, contract prompt "p"): names must be unique in a set; give all but one another name (@Prompt({ name: \'...\' }) on a class, "name" on a contract prompt)',
      },
    ],
  );
  assert.deepEqual(
    issuesOf(() =>
      compilePrompts([
        { name: 'bad name', description: '', get: 'x' },
        { name: 'q', description: 'd', get: async () => '', arguments: [{ name: 'a' }, { name: 'a' }] },
        { name: 'r', description: 'd', get: async () => '', arguments: [{ name: 'a', required: 'yes' }] },
      ]),
    ),
    [
      {
        code: 'invalid-name',
        className: '',
        member: 'name',
        message:
          'the contract prompt at item 0 has name "bad name", which is not a valid prompt name: give it a "name" of 1 to 128 of A-Z a-z 0-9 _ - .',
      },
      {
        code: 'missing-description',
        className: '',
        member: 'description',
        message:
          'the contract prompt at item 0 has no description: give it a "description" that tells the user what the prompt is for',
      },
      {
        code: 'missing-messages',
        className: '',
        member: 'get',
        message:
          "the contract prompt at item 0 has no get function: give it get(args, ctx) returning the prompt's messages",
      },
      {
        code: 'invalid-prompt-argument',
        className: '',
        member: 'arguments',
        message: 'contract prompt "q": argument "a" is listed twice',
      },
      {
        code: 'invalid-prompt-argument',
        className: '',
        member: 'arguments',
        message: 'contract prompt "r": argument "a": "required" must be true or false',
      },
    ],
  );
  const [kept] = compilePrompts([handBuilt]);
  assert.ok(Object.isFrozen(kept));
  assert.equal(await kept!.get({}, contextFor('p')), 'hi');
});
