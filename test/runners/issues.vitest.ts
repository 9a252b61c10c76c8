// Run by test/schema-runners.test.ts with vitest 3 (vite 7, esbuild: no decorator metadata).
// The issue tracker sample compiles and its tools answer; the greet sample's bare @Args() is
// reported with the runner and the fix.
import { describe, expect, it } from 'vitest';
import { Args, Tool, compile } from 'toolwright';
import { createCallContext } from 'toolwright/runtime';
import { IsString } from 'class-validator';
import { tools } from '../../samples/issues/tools.js';
import { GreetTool } from '../../samples/greet/greet.js';

class EchoArgs {
  @IsString() text!: string;
}

@Tool({ description: 'Echo the text' })
class EchoTool {
  execute(@Args() args: EchoArgs) {
    return args.text;
  }
}

const ctx = (tool: string) => createCallContext({ call: { id: '1', tool, args: {} } });

describe('toolwright under vitest 3', () => {
  it('compiles the issue tracker sample without design metadata and calls its tools', async () => {
    const compiled = compile(tools, { schemaProfile: 'portable' });
    expect(compiled.map((tool) => tool.name)).toEqual([
      'create_issue',
      'search_issues',
      'add_comment',
      'schedule_issue',
      'link_issues',
      'plan_tasks',
    ]);
    const schedule = compiled.find((tool) => tool.name === 'schedule_issue')!;
    expect(await schedule.execute({ issue: 4, target: { kind: 'sprint', sprint: 2 } }, ctx('schedule_issue'))).toBe(
      '#4 planned for sprint 2',
    );
    await expect(
      schedule.execute({ issue: 4, target: { kind: 'sprint', sprint: 0 } }, ctx('schedule_issue')),
    ).rejects.toThrow('invalid arguments: /target/sprint: must be >= 1');
  });

  it('compiles the greet sample (@Args(GreetArgs)) and names the runner and the fix for a bare @Args()', () => {
    expect(compile([GreetTool]).map((tool) => tool.name)).toEqual(['greet']);
    expect(() => compile([EchoTool])).toThrow('Name the class: @Args(EchoArgs) or @Tool({ args: EchoArgs })');
  });
});
