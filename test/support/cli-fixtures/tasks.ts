// CLI fixture: task tools. `report` (required) reports progress, waits 30 ms and answers; `broken`
// (optional) fails as a tool.
import type { ContractTool } from 'toolwright';

export const tools: ContractTool[] = [
  {
    name: 'report',
    description: 'Writes a report as a task.',
    task: { support: 'required', pollIntervalMs: 10 },
    async execute(_args, ctx): Promise<string> {
      ctx.progress?.({ progress: 1, total: 2, message: 'half way' });
      await new Promise((resolve) => setTimeout(resolve, 30));
      return 'report ready';
    },
  },
  {
    name: 'broken',
    description: 'Fails as a task.',
    task: { support: 'optional', pollIntervalMs: 10 },
    async execute(): Promise<string> {
      throw new Error('out of paper');
    },
  },
];
