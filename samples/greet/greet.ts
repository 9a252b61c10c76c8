import { Tool, ReadOnly, Args, Description, type CallContext } from 'toolwright';
import { IsString, IsInt, IsOptional, Min, Max } from 'class-validator';

class GreetArgs {
  @Description('Who to greet') @IsString() name!: string;

  @IsOptional() @IsInt() @Min(1) @Max(5) times: number = 1;
}

// The tool's name is "greet": the class name in snake_case, without "Tool".
@Tool({ description: 'Greet someone, politely' })
@ReadOnly()
export class GreetTool {
  // `args` is a validated GreetArgs: bad arguments never reach this method.
  async execute(@Args(GreetArgs) args: GreetArgs, ctx: CallContext) {
    ctx.log('info', `greeting ${args.name}`);
    return Array(args.times).fill(`Hello, ${args.name}!`).join(' ');
  }
}
