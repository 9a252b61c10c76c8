// Run by test/schema-runners.test.ts under tsx. The greet sample names its arguments class with
// @Args(GreetArgs) and compiles; a tool that marks its parameter with a bare @Args() cannot be
// read under esbuild, and compile says so. Prints both outcomes.
import { Args, Tool, compile } from 'toolwright';
import { IsString } from 'class-validator';
import { GreetTool } from '../../samples/greet/greet.js';

class EchoArgs {
  @IsString() text!: string;
}

@Tool({ description: 'Echo the text' })
export class EchoTool {
  execute(@Args() args: EchoArgs) {
    return args.text;
  }
}

process.stdout.write(
  `greet: ${compile([GreetTool])
    .map((tool) => tool.name)
    .join(', ')}\n`,
);
try {
  compile([EchoTool]);
  process.stdout.write('echo: compiled\n');
} catch (error) {
  process.stdout.write(`${(error as Error).message}\n`);
}
