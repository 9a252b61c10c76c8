// Run by test/schema-runners.test.ts under tsx: the greet sample marks its parameter with
// @Args() but names no class, which esbuild-based runners cannot see. Prints compile's message.
import { compile } from 'toolwright';
import { GreetTool } from '../../samples/greet/greet.js';

try {
  compile([GreetTool]);
  process.stdout.write('compiled\n');
} catch (error) {
  process.stdout.write(`${(error as Error).message}\n`);
}
