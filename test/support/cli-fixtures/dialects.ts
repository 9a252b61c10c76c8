// CLI fixture: hand-built tools whose `parameters` declare draft-07 (without the trailing `#`),
// draft-04 (with it) and a dialect no validator knows, as a server of another SDK lists them.
import type { ContractTool } from 'toolwright';

function echo(name: string, $schema: string): ContractTool {
  return {
    name,
    description: `Echoes n (parameters in ${$schema}).`,
    parameters: {
      $schema,
      type: 'object',
      properties: { n: { type: 'integer', minimum: 1 } },
      required: ['n'],
      additionalProperties: false,
    },
    async execute(args: unknown): Promise<string> {
      return `n=${JSON.stringify((args as { n?: unknown }).n)}`;
    },
  };
}

export const tools = [
  echo('draft07', 'http://json-schema.org/draft-07/schema'),
  echo('draft04', 'http://json-schema.org/draft-04/schema#'),
  echo('other', 'https://example.com/my-dialect'),
];
