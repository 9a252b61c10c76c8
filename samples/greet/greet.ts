import { Tool, ReadOnly, Args, Description, type CallContext } from 'toolwright';
import { IsString, IsInt, IsOptional, Min, Max } from 'class-validator';

class GreetArgs {
  @Description('Who to greet') @IsString()
  name!: string;

  @IsOptional() @IsInt() @Min(1) @Max(5)
  times: number = 1;
}

@Tool({ description: 'Greet someone, politely' })
@ReadOnly()
export class GreetTool {                                      // tool name: "greet"
  async execute(@Args(GreetArgs) args: GreetArgs, ctx: CallContext) {  // a validated GreetArgs
    ctx.log('info', `greeting ${args.name}`);
    return Array(args.times).fill(`Hello, ${args.name}!`).join(' ');
  }
}
