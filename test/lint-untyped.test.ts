import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Allow, IsObject, IsOptional, IsString } from 'class-validator';
import { compile, Tool, type ContractTool } from '../src/index.js';
import { lintTools } from '../src/compiler/index.js';
import { Executor } from '../src/runtime/index.js';

/*
 * Provider rules that match real providers: raw Gemini refuses `additionalProperties` (the
 * `gemini` profile leaves it out, the Gemini rule reports it); strict providers refuse a value
 * of any type (`{}`) and an open object (`{"type":"object"}`): the lint names the decorator that
 * types it, and the strict profiles list each as JSON text the server decodes back before it
 * validates the exact schema.
 */

class Filters {
  @IsString()
  label!: string;
}

class Args {
  /** `string | number`: class-validator cannot type it. */
  @Allow()
  value!: string | number;

  @IsObject()
  labels!: Record<string, string>;

  @IsOptional()
  @IsObject()
  extra?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  note?: string;
}

@Tool({ name: 'tag', description: 'Tags a thing', args: Args })
class Tag {
  execute(args: Args): string {
    return JSON.stringify({ value: args.value, labels: args.labels, extra: args.extra ?? null });
  }
}

@Tool({ name: 'find', description: 'Finds things', args: Filters })
class Find {
  execute(args: Filters): string {
    return args.label;
  }
}

const rulesOf = (tools: readonly ContractTool[], providers: Parameters<typeof lintTools>[1]) =>
  lintTools(tools, providers).map((f) => [f.rule, f.pointer, f.message, f.fix]);

test('gemini: the lint reports additionalProperties: false; the gemini profile leaves it out everywhere', async () => {
  const exact = compile([Find]);
  assert.deepEqual(rulesOf(exact, { providers: ['gemini'] }), [
    [
      'gemini/additional-properties',
      '/additionalProperties',
      'additionalProperties: false is refused by Gemini when the schema reaches it as it is',
      "compile or serve with schemaProfile: 'gemini' (or --profile gemini): the listing leaves it out and the server still refuses unknown properties (hosts whose Gemini adapter strips it, as the AI SDK's does, may keep 'portable')",
    ],
  ]);
  const gemini = compile([Find, Tag], { schemaProfile: 'gemini' });
  assert.deepEqual(gemini[0]!.parameters, {
    type: 'object',
    properties: { label: { type: 'string' } },
    required: ['label'],
  });
  assert.equal(JSON.stringify(gemini.map((t) => t.parameters)).includes('additionalProperties'), false);
  assert.deepEqual(lintTools(gemini, { providers: ['gemini'] }), []);
  const [outcome] = await new Executor({ tools: gemini }).run([
    { id: 'a', tool: 'find', args: { label: 'x', extra: 1 } },
  ]);
  assert.equal(
    outcome!.ok ? '' : outcome!.error.message,
    'invalid arguments: /: must NOT have additional property "extra"',
  );
});

test('portable keeps additionalProperties (OpenAI and Anthropic strict require it): only raw Gemini reports it', () => {
  const portable = compile([Find], { schemaProfile: 'portable' });
  assert.deepEqual(
    lintTools(portable).map((f) => f.rule),
    ['gemini/additional-properties'],
  );
});

test('strict providers: an untyped field and an open object are reported with the decorator that types them', () => {
  const findings = rulesOf(compile([Tag]), { providers: ['openai-strict', 'anthropic-strict'] }).filter(
    ([rule]) => !String(rule).endsWith('all-required') && !String(rule).endsWith('type-list'),
  );
  const untypedFix =
    "give the field a type: @UnionOf([String, Number]) for a union (or the one decorator of its type, such as @IsString()); or compile or serve with schemaProfile: 'portable', which lists it as JSON text the server decodes";
  const openFix =
    "type its values: @MapOf(String) for a map of strings (or a DTO class with @ValidateNested() and @Type(() => Dto)); or compile or serve with schemaProfile: 'portable', which lists it as JSON text the server decodes";
  const open = (rule: string, at: string, message: string) => [rule, at, message, openFix];
  const OPENAI_OPEN =
    'an open object (any keys, values of any type) cannot be expressed; strict mode requires additionalProperties: false';
  const ANTHROPIC_OPEN =
    'an open object (any keys, values of any type) is not supported; every object sets additionalProperties: false';
  assert.deepEqual(findings, [
    open('openai-strict/additional-properties', '/properties/labels', OPENAI_OPEN),
    open('openai-strict/additional-properties', '/properties/extra', OPENAI_OPEN),
    [
      'openai-strict/untyped',
      '/properties/value',
      'the value has no type (any JSON value); strict mode needs one',
      untypedFix,
    ],
    open('anthropic-strict/additional-properties', '/properties/labels', ANTHROPIC_OPEN),
    open('anthropic-strict/additional-properties', '/properties/extra', ANTHROPIC_OPEN),
    [
      'anthropic-strict/untyped',
      '/properties/value',
      'the value has no type (any JSON value); strict tool use needs one',
      untypedFix,
    ],
  ]);
});

test('portable: an untyped field and an open object are listed as JSON text, decoded before the exact schema', async () => {
  const [portable] = compile([Tag], { schemaProfile: 'portable' });
  assert.deepEqual(portable!.parameters, {
    type: 'object',
    properties: {
      value: { type: 'string', description: 'Any JSON value, written as JSON text (the server decodes it).' },
      labels: { type: 'string', description: 'A JSON object, written as JSON text (the server decodes it).' },
      extra: {
        description: 'A JSON object, written as JSON text (the server decodes it).',
        anyOf: [{ type: 'string' }, { type: 'null' }],
      },
      note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
    required: ['value', 'labels', 'extra', 'note'],
    additionalProperties: false,
  });
  assert.deepEqual(
    lintTools([portable!], { providers: ['openai-strict', 'anthropic', 'anthropic-strict', 'mcp'] }),
    [],
  );
  const outcomes = await new Executor({ tools: [portable!] }).run([
    { id: 'a', tool: 'tag', args: { value: '7', labels: '{"a":"b"}', extra: null, note: null } },
    { id: 'b', tool: 'tag', args: { value: 'plain words', labels: '{}', extra: '{"n":[1]}', note: null } },
    { id: 'c', tool: 'tag', args: { value: '1', labels: '[1,2]', extra: null, note: null } },
    { id: 'd', tool: 'tag', args: { value: '1', labels: 'not json', extra: null, note: null } },
  ]);
  assert.deepEqual(
    outcomes.map((o) => (o.ok ? (o.result.content[0] as { text: string }).text : o.error.message)),
    [
      '{"value":7,"labels":{"a":"b"},"extra":null}',
      '{"value":"plain words","labels":{},"extra":{"n":[1]}}',
      'invalid arguments: /labels: must be object',
      'invalid arguments: /labels: must be object',
    ],
  );
});
