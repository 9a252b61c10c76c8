import type { CreateIssueArgs } from './dtos.js';

export interface StoredIssue {
  readonly id: number;
  readonly title: string;
  readonly url: string;
  readonly state: 'open' | 'closed';
  readonly labels: string[];
}

/** The sample's in-memory issue store (one per process; nothing is persisted). */
export class IssueStore {
  private readonly issues: StoredIssue[] = [];

  create(args: CreateIssueArgs): StoredIssue {
    const id = this.issues.length + 1;
    const issue: StoredIssue = {
      id,
      title: args.title,
      url: `https://issues.example/${id}`,
      state: 'open',
      labels: args.labels.map((label) => label.name),
    };
    this.issues.push(issue);
    return issue;
  }

  search(query: string, states: readonly string[], limit: number): { issues: StoredIssue[]; total: number } {
    const found = this.issues.filter((issue) => issue.title.includes(query) && states.includes(issue.state));
    return { issues: found.slice(0, limit), total: found.length };
  }
}
