import { IsOptional, IsString, MaxLength } from 'class-validator';
import { compile, Description, ReadOnly, Scopes, Tool, type CallContext, type ContractTool } from '../../src/index.js';

/** One issue of the sample tracker. */
export interface Issue {
  readonly id: number;
  readonly title: string;
  /** `ctx.principal.subject` of the caller who opened it. */
  readonly author: string;
}

/** An in-memory issue tracker shared by the sample's tools. */
export class IssueStore {
  readonly issues: Issue[] = [];
}

class CreateIssueArgs {
  @Description('A one-line summary')
  @IsString()
  @MaxLength(200)
  title!: string;
}

class ListIssuesArgs {
  @Description('Only issues opened by this subject')
  @IsOptional()
  @IsString()
  author?: string;
}

@Tool({ name: 'create_issue', description: 'Open an issue; its author is the caller', args: CreateIssueArgs })
@Scopes('issues:write')
export class CreateIssue {
  constructor(private readonly store: IssueStore) {}
  execute(args: CreateIssueArgs, ctx: CallContext): string {
    const issue = { id: this.store.issues.length + 1, title: args.title, author: ctx.principal?.subject ?? 'local' };
    this.store.issues.push(issue);
    return `opened #${issue.id} "${issue.title}" as ${issue.author}`;
  }
}

@Tool({ name: 'list_issues', description: 'List the open issues', args: ListIssuesArgs })
@Scopes('issues:read')
@ReadOnly()
export class ListIssues {
  constructor(private readonly store: IssueStore) {}
  execute(args: ListIssuesArgs): string {
    const shown = this.store.issues.filter((issue) => args.author === undefined || issue.author === args.author);
    return shown.length === 0
      ? 'no issues'
      : shown.map((issue) => `#${issue.id} ${issue.title} (${issue.author})`).join('\n');
  }
}

@Tool({ name: 'whoami', description: 'Say who the server thinks is calling', args: undefined })
@ReadOnly()
export class WhoAmI {
  execute(_args: unknown, ctx: CallContext): string {
    const p = ctx.principal;
    return p === undefined
      ? 'nobody (no principal: stdio or HTTP without auth)'
      : `${p.subject} via client ${p.clientId}, scopes: ${p.scopes.join(' ')}`;
  }
}

/** The sample's tools over one fresh store. */
export function issueTools(store = new IssueStore()): readonly ContractTool[] {
  return compile([new CreateIssue(store), new ListIssues(store), new WhoAmI()]);
}
