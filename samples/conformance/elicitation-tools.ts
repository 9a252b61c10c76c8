import { Tool, type CallContext, type ElicitAnswer } from '../../src/index.js';

/**
 * The conformance suite's elicitation schema tools (scenarios elicitation-sep1034-defaults and
 * elicitation-sep1330-enums): each asks one form whose schema shows a feature of the spec.
 */

function completed(answer: ElicitAnswer): string {
  return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
}

@Tool({
  name: 'test_elicitation_sep1034_defaults',
  description: 'Asks a form whose fields all have defaults (SEP-1034).',
  args: undefined,
})
export class TestElicitationSep1034Defaults {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    return completed(
      await ctx.elicit({
        message: 'Please review and update the form fields with defaults',
        schema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
        },
      }),
    );
  }
}

@Tool({
  name: 'test_elicitation_sep1330_enums',
  description: 'Asks a form with the five enum forms (SEP-1330).',
  args: undefined,
})
export class TestElicitationSep1330Enums {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    return completed(
      await ctx.elicit({
        message: 'Please select options from the enum fields',
        schema: {
          type: 'object',
          properties: {
            untitledSingle: {
              type: 'string',
              description: 'Untitled single-select',
              enum: ['option1', 'option2', 'option3'],
            },
            titledSingle: {
              type: 'string',
              description: 'Titled single-select',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Legacy titled enum',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Untitled multi-select',
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Titled multi-select',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
      }),
    );
  }
}
