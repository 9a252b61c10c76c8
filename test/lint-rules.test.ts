import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LINT_RULES, lintSchema, type LintProvider } from '../src/compiler/index.js';
import { type JsonObject } from '../src/index.js';

/**
 * A schema every provider's rules accept but raw Gemini's: it closes the object with
 * `additionalProperties: false`, which OpenAI strict requires and Gemini refuses (no one schema
 * satisfies both; see `GEMINI_BASE`).
 */
const BASE: JsonObject = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
  additionalProperties: false,
};

/** BASE as the `gemini` profile lists it: without `additionalProperties`. */
const GEMINI_BASE: JsonObject = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

/** BASE with the property `name` replaced. */
function withName(name: JsonObject): JsonObject {
  return { ...BASE, properties: { name } };
}

/** GEMINI_BASE with the property `name` replaced. */
function geminiWithName(name: JsonObject): JsonObject {
  return { ...GEMINI_BASE, properties: { name } };
}

/** An object nested `levels` deep (the root being level 1), each holding the next as `child`. */
function nested(levels: number): JsonObject {
  let schema: JsonObject = { type: 'object', properties: {}, additionalProperties: false };
  for (let level = 1; level < levels; level++)
    schema = { type: 'object', properties: { child: schema }, required: ['child'], additionalProperties: false };
  return schema;
}

interface Case {
  readonly rule: string;
  readonly schema: JsonObject;
  readonly tool?: string;
  readonly role?: 'input' | 'output';
  /** The pointers of the findings, in order. */
  readonly pointers: readonly string[];
}

/** For every rule, a schema that breaks that rule and no other rule of the same provider. */
const CASES: readonly Case[] = [
  {
    rule: 'openai-strict/all-required',
    schema: { ...BASE, properties: { name: { type: 'string' }, note: { type: 'string' } } },
    pointers: ['/properties/note'],
  },
  {
    rule: 'openai-strict/additional-properties',
    schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    pointers: ['/additionalProperties'],
  },
  {
    rule: 'openai-strict/root-object',
    schema: {
      type: 'object',
      anyOf: [{ type: 'object', properties: {}, additionalProperties: false }],
      properties: {},
      additionalProperties: false,
    },
    pointers: [''],
  },
  {
    rule: 'openai-strict/unsupported-keyword',
    schema: withName({ type: 'string', minLength: 1 }),
    pointers: ['/properties/name/minLength'],
  },
  {
    rule: 'openai-strict/format',
    schema: withName({ type: 'string', format: 'uri' }),
    pointers: ['/properties/name/format'],
  },
  {
    rule: 'openai-strict/nesting-depth',
    schema: nested(11),
    pointers: [
      '/properties/child/properties/child/properties/child/properties/child/properties/child/properties/child/properties/child/properties/child/properties/child/properties/child',
    ],
  },
  {
    rule: 'openai-strict/untyped',
    schema: withName({ description: 'any value' }),
    pointers: ['/properties/name'],
  },
  {
    rule: 'gemini/type-list',
    schema: geminiWithName({ type: ['string', 'null'] }),
    pointers: ['/properties/name/type'],
  },
  {
    rule: 'gemini/enum-strings',
    schema: geminiWithName({ type: 'integer', enum: [1, 2] }),
    pointers: ['/properties/name/enum'],
  },
  {
    rule: 'gemini/ref',
    schema: { ...geminiWithName({ $ref: '#/$defs/Name' }), $defs: { Name: { type: 'string' } } },
    pointers: ['/$defs', '/properties/name/$ref'],
  },
  {
    rule: 'gemini/additional-properties',
    schema: { ...BASE, properties: { name: { type: 'object', properties: {}, additionalProperties: true } } },
    pointers: ['/additionalProperties', '/properties/name/additionalProperties'],
  },
  {
    rule: 'gemini/format',
    schema: geminiWithName({ type: 'string', format: 'uuid' }),
    pointers: ['/properties/name/format'],
  },
  {
    rule: 'gemini/map',
    schema: geminiWithName({ type: 'object', additionalProperties: { type: 'string' } }),
    pointers: ['/properties/name/additionalProperties'],
  },
  {
    rule: 'gemini/unsupported-keyword',
    schema: geminiWithName({ type: 'string', const: 'a' }),
    pointers: ['/properties/name/const'],
  },
  {
    rule: 'anthropic/root-object',
    schema: { properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
    pointers: [''],
  },
  {
    rule: 'anthropic-strict/recursion',
    schema: {
      ...withName({ $ref: '#/$defs/Node' }),
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } }, additionalProperties: false } },
    },
    pointers: ['/$defs'],
  },
  {
    rule: 'anthropic-strict/numeric-bounds',
    schema: withName({ type: 'integer', minimum: 1 }),
    pointers: ['/properties/name/minimum'],
  },
  {
    rule: 'anthropic-strict/length-bounds',
    schema: withName({ type: 'string', maxLength: 3 }),
    pointers: ['/properties/name/maxLength'],
  },
  {
    rule: 'anthropic-strict/array-bounds',
    schema: withName({ type: 'array', items: { type: 'string' }, minItems: 2 }),
    pointers: ['/properties/name/minItems'],
  },
  {
    rule: 'anthropic-strict/additional-properties',
    schema: withName({ type: 'object', properties: {} }),
    pointers: ['/properties/name/additionalProperties'],
  },
  {
    rule: 'anthropic-strict/untyped',
    schema: withName({ description: 'any value' }),
    pointers: ['/properties/name'],
  },
  {
    rule: 'anthropic-strict/type-list',
    schema: withName({ type: ['string', 'null'] }),
    pointers: ['/properties/name/type'],
  },
  {
    rule: 'anthropic-strict/format',
    schema: withName({ type: 'string', format: 'iri' }),
    pointers: ['/properties/name/format'],
  },
  {
    rule: 'mcp/object-schema',
    schema: { properties: {}, additionalProperties: false },
    role: 'output',
    pointers: [''],
  },
  {
    rule: 'mcp/schema-dialect',
    schema: { ...BASE, $schema: 'http://json-schema.org/draft-07/schema#' },
    pointers: ['/$schema'],
  },
  { rule: 'mcp/tool-name', schema: BASE, tool: 'create issue', pointers: [''] },
];

test('the base schema passes every rule of every provider but raw Gemini, which the same schema open passes', () => {
  assert.deepEqual(
    lintSchema(BASE, { tool: 't', role: 'input' }).map((f) => `${f.rule} ${f.pointer}`),
    ['gemini/additional-properties /additionalProperties'],
  );
  assert.deepEqual(lintSchema(GEMINI_BASE, { tool: 't', role: 'input' }, { providers: ['gemini'] }), []);
});

test('every rule has a case, and every rule id is stable, unique and cites documentation', () => {
  const ids = LINT_RULES.map((rule) => rule.id);
  assert.equal(new Set(ids).size, ids.length);
  assert.deepEqual([...ids].sort(), CASES.map((c) => c.rule).sort());
  for (const rule of LINT_RULES) {
    assert.match(rule.id, new RegExp(`^${rule.provider}/[a-z-]+$`));
    assert.match(
      rule.citation,
      /^https:\/\/(platform\.openai\.com|ai\.google\.dev|docs\.anthropic\.com|modelcontextprotocol\.io)\//,
    );
  }
});

for (const c of CASES) {
  test(`${c.rule}: a schema that breaks only this rule of its provider`, () => {
    const provider = c.rule.split('/')[0] as LintProvider;
    const findings = lintSchema(
      c.schema,
      { tool: c.tool ?? 'make_issue', role: c.role ?? 'input' },
      { providers: [provider] },
    );
    assert.deepEqual(
      findings.map((f) => `${f.rule} ${f.pointer}`),
      c.pointers.map((pointer) => `${c.rule} ${pointer}`),
    );
    for (const finding of findings) {
      assert.equal(finding.tool, c.tool ?? 'make_issue');
      assert.equal(finding.schema, c.role === 'output' ? 'outputSchema' : 'inputSchema');
      assert.ok(finding.fix.length > 10, 'a finding names its fix');
    }
  });
}

test('a finding carries rule, provider, tool, schema, pointer, message, fix and citation', () => {
  assert.deepEqual(
    lintSchema(
      withName({ type: 'string', format: 'uri' }),
      { tool: 'open_page', role: 'input' },
      { providers: ['openai-strict'] },
    ),
    [
      {
        rule: 'openai-strict/format',
        provider: 'openai-strict',
        tool: 'open_page',
        schema: 'inputSchema',
        pointer: '/properties/name/format',
        message:
          'format "uri" is not supported in strict mode (supported: date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid)',
        fix: "compile or serve with schemaProfile: 'portable' (or --profile portable): the listing moves it into the description and the server still enforces it",
        citation: 'https://platform.openai.com/docs/guides/structured-outputs#supported-schemas',
      },
    ],
  );
});

test('output schemas are checked against the MCP rules only (providers see input schemas)', () => {
  const loose = withName({ type: ['string', 'null'], minLength: 1 });
  assert.deepEqual(lintSchema(loose, { tool: 't', role: 'output' }), []);
  assert.deepEqual(
    lintSchema(loose, { tool: 't', role: 'input' }).map((f) => f.rule),
    [
      'openai-strict/unsupported-keyword',
      'gemini/type-list',
      'gemini/additional-properties',
      'anthropic-strict/length-bounds',
      'anthropic-strict/type-list',
    ],
  );
});

test('bad providers are refused with the known list', () => {
  assert.throws(() => lintSchema(BASE, { tool: 't', role: 'input' }, { providers: ['claude' as LintProvider] }), {
    name: 'TypeError',
    message: 'lint: unknown provider "claude" (known: openai-strict, gemini, anthropic, anthropic-strict, mcp)',
  });
});
