import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Description, Idempotent, ReadOnly, Tool } from '../../src/index.js';

export class EchoArgs {
  @Description('The text to echo back')
  @IsString()
  @MaxLength(10_000)
  text!: string;

  @Description('How many times to repeat it (default 1)')
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(5)
  count?: number;
}

/**
 * Echoes `text` back `count` times, joined by single spaces: the smallest tool with arguments,
 * used by the Inspector tests and the server benchmark.
 */
@Tool({ name: 'echo', description: 'Echoes the text back, repeated count times (1 to 5).', args: EchoArgs })
@ReadOnly()
@Idempotent()
export class Echo {
  async execute(args: EchoArgs): Promise<string> {
    return Array.from({ length: args.count ?? 1 }, () => args.text).join(' ');
  }
}
