import { compile, compilePrompts, Prompt, ReadOnly, Tool } from '../../src/index.js';
import type { ServedSet } from '../../src/mcp/index.js';

/**
 * The conformance suite's list-change hooks (2026-07-28 scenario server-stateless: a
 * `subscriptions/listen` stream asking for `toolsListChanged` or `promptsListChanged` must hear
 * of a change): `test_trigger_tool_change` adds the tool `test_dynamic_tool`, or removes it when
 * it is served; `test_trigger_prompt_change` does the same with the prompt `test_dynamic_prompt`.
 * They change the set the server serves through the `ServedSet` that `toolwright serve` hands to
 * the module's `onServe` export, so every client is told as its era defines.
 */

/** What `toolwright serve` serves, once it said so (see `onServe`). */
let served: ServedSet | undefined;

/** The module's `onServe` export: `toolwright serve` calls it once serving. */
export function onServe(set: ServedSet): void {
  served = set;
}

function servedSet(): ServedSet {
  if (served === undefined) throw new Error('the set is not served yet (serve this module with toolwright serve)');
  return served;
}

@Tool({ name: 'test_dynamic_tool', description: 'Served only between two calls of test_trigger_tool_change.' })
@ReadOnly()
export class TestDynamicTool {
  async execute(): Promise<string> {
    return 'This tool comes and goes.';
  }
}

@Prompt({ name: 'test_dynamic_prompt', description: 'Served only between two calls of test_trigger_prompt_change.' })
export class TestDynamicPrompt {
  messages(): string {
    return 'This prompt comes and goes.';
  }
}

@Tool({
  name: 'test_trigger_tool_change',
  description: 'Changes the tool list: adds test_dynamic_tool, or removes it when it is served.',
})
export class TestTriggerToolChange {
  async execute(): Promise<string> {
    const set = servedSet();
    if (set.tools.some((tool) => tool.name === 'test_dynamic_tool')) {
      set.removeTools(['test_dynamic_tool']);
      return 'removed test_dynamic_tool';
    }
    set.addTools(compile([TestDynamicTool]));
    return 'added test_dynamic_tool';
  }
}

@Tool({
  name: 'test_trigger_prompt_change',
  description: 'Changes the prompt list: adds test_dynamic_prompt, or removes it when it is served.',
})
export class TestTriggerPromptChange {
  async execute(): Promise<string> {
    const set = servedSet();
    if (set.prompts.some((prompt) => prompt.name === 'test_dynamic_prompt')) {
      set.removePrompts(['test_dynamic_prompt']);
      return 'removed test_dynamic_prompt';
    }
    set.addPrompts(compilePrompts([TestDynamicPrompt]));
    return 'added test_dynamic_prompt';
  }
}
