// CLI fixture: a module with a `tools` array mixing a hand-built contract tool and an instance
// of a tool class; the listing keeps the array's order.
import {
  InvalidArgumentsError,
  Tool,
  embeddedText,
  image,
  text,
  type ContentPart,
  type ContractTool,
} from 'toolwright';

export const add: ContractTool = {
  name: 'add',
  description: 'Adds two integers.',
  parameters: {
    type: 'object',
    properties: { a: { type: 'integer' }, b: { type: 'integer' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  async execute(args: unknown): Promise<string> {
    const { a, b } = args as { a?: unknown; b?: unknown };
    if (!Number.isInteger(a) || !Number.isInteger(b))
      throw new InvalidArgumentsError([{ pointer: '', message: 'a and b must be integers' }]);
    return String((a as number) + (b as number));
  },
};

@Tool({ name: 'show', description: 'Returns one part of each kind.' })
export class Show {
  constructor(private readonly label: string) {}
  async execute(): Promise<ContentPart[]> {
    return [text(this.label), image('AAAA', 'image/png'), embeddedText('memo://1', 'remember', 'text/plain')];
  }
}

export const tools = [add, new Show('parts:')];
