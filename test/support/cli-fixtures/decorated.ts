// CLI fixture: a module whose tools are its exported @Tool classes (other exports are ignored).
import { IsString, MaxLength } from 'class-validator';
import { Description, ReadOnly, Tool, ToolError } from 'toolwright';

export class GreetArgs {
  @Description('Who to greet')
  @IsString()
  @MaxLength(40)
  name!: string;
}

@Tool({ name: 'greet', description: 'Greets someone by name.', args: GreetArgs })
@ReadOnly()
export class Greet {
  async execute(args: GreetArgs): Promise<string> {
    return `Hello, ${args.name}!`;
  }
}

@Tool({ name: 'fail', description: 'Always fails.' })
export class Fail {
  async execute(): Promise<string> {
    throw new ToolError('no luck today');
  }
}

export function helper(): string {
  return 'not a tool';
}

export const VERSION = '1.0.0';
