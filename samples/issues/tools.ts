import { Args, ReadOnly, Tool, type CallContext } from 'toolwright';
import {
  CommentArgs,
  CreateIssueArgs,
  IssueResult,
  LinkArgs,
  MilestoneTarget,
  PlanArgs,
  ScheduleArgs,
  SearchIssuesArgs,
  SearchResult,
  Task,
} from './dtos.js';
import { IssueStore } from './store.js';

/**
 * An issue tracker's tools, written the way a new user would: nested DTOs, enum arrays,
 * defaults, dates, a discriminated union, a primitive union, a map, a recursive DTO and result
 * DTOs. Every tool answers with what it received, so tests can see the DTO the tool got.
 */
const store = new IssueStore();

@Tool({ description: 'Create an issue', args: CreateIssueArgs, result: IssueResult })
export class CreateIssue {
  async execute(args: CreateIssueArgs) {
    return store.create(args);
  }
}

@Tool({ description: 'Search issues by words and state', result: SearchResult })
@ReadOnly()
export class SearchIssues {
  async execute(@Args(SearchIssuesArgs) args: SearchIssuesArgs) {
    return store.search(args.query, args.states, args.limit);
  }
}

@Tool({ description: 'Comment on an issue', args: CommentArgs })
export class AddComment {
  async execute(args: CommentArgs) {
    return `commented on ${typeof args.issue === 'number' ? `#${args.issue}` : args.issue}: ${args.body}`;
  }
}

@Tool({ description: 'Plan an issue into a milestone or a sprint', args: ScheduleArgs })
export class ScheduleIssue {
  async execute(args: ScheduleArgs) {
    return args.target instanceof MilestoneTarget
      ? `#${args.issue} planned for milestone ${args.target.milestone}`
      : `#${args.issue} planned for sprint ${args.target.sprint}`;
  }
}

@Tool({ description: 'Link an issue to others', args: LinkArgs })
export class LinkIssues {
  async execute(args: LinkArgs) {
    return Object.entries(args.links)
      .map(([name, link]) => `${name}: #${args.issue} ${link.relation} #${link.issue}`)
      .join('\n');
  }
}

@Tool({ description: 'Split an issue into a tree of tasks', args: PlanArgs })
export class PlanTasks {
  async execute(args: PlanArgs, _ctx: CallContext) {
    const lines: string[] = [];
    const walk = (tasks: readonly Task[], depth: number): void => {
      for (const task of tasks) {
        lines.push(`${'  '.repeat(depth)}- ${task.title}${task instanceof Task ? '' : ' (not a Task)'}`);
        if (task.subtasks !== undefined && depth < 16) walk(task.subtasks, depth + 1);
      }
    };
    walk(args.tasks, 0);
    return `#${args.issue}\n${lines.join('\n')}`;
  }
}

export const tools = [CreateIssue, SearchIssues, AddComment, ScheduleIssue, LinkIssues, PlanTasks];
