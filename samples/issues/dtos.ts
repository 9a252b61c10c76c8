import { Description, MapOf, UnionOf } from 'toolwright';
import {
  ArrayMaxSize,
  IsDate,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';

/** The priorities an issue can have. */
export enum Priority {
  Low = 'low',
  Normal = 'normal',
  High = 'high',
}

/** A label on an issue (a nested DTO). */
export class Label {
  @Description('Label name')
  @IsString()
  @MinLength(1)
  @MaxLength(50)
  name!: string;

  @Description('Colour as #rrggbb')
  @IsOptional()
  @Matches(/^#[0-9a-f]{6}$/)
  color?: string;
}

/** One task of a plan; tasks nest (a recursive DTO). */
export class Task {
  @IsString()
  @MinLength(1)
  title!: string;

  @Description('Smaller tasks this one splits into')
  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => Task)
  subtasks?: Task[];
}

/** Assign to a milestone ... */
export class MilestoneTarget {
  @IsString()
  @MaxLength(80)
  milestone!: string;
}

/** ... or to a numbered sprint (the two cases of a discriminated union). */
export class SprintTarget {
  @IsInt()
  @Min(1)
  sprint!: number;
}

/** How an issue links to another one. */
export class Link {
  @IsIn(['blocks', 'duplicates', 'relates'])
  relation!: 'blocks' | 'duplicates' | 'relates';

  @IsInt()
  @Min(1)
  issue!: number;
}

export class CreateIssueArgs {
  @Description('One-line summary')
  @IsString()
  @MinLength(3)
  @MaxLength(200)
  title!: string;

  @Description('Markdown body')
  @IsOptional()
  @IsString()
  body?: string;

  @Description('Labels to add')
  @ValidateNested({ each: true })
  @Type(() => Label)
  @ArrayMaxSize(10)
  labels: Label[] = [];

  @IsEnum(Priority)
  priority: Priority = Priority.Normal;

  @Description('E-mail addresses of the assignees')
  @IsOptional()
  @IsEmail({}, { each: true })
  assignees?: string[];

  @Description('When it is due')
  @IsOptional()
  @IsDate()
  @Type(() => Date)
  due?: Date;

  @Description('Free-form key/value fields')
  @MapOf(String)
  fields: Record<string, string> = {};
}

export class IssueResult {
  @IsInt() id!: number;
  @IsString() title!: string;
  @IsUrl() url!: string;
  @IsIn(['open', 'closed']) state!: 'open' | 'closed';
  @IsString({ each: true }) labels!: string[];
}

export class SearchIssuesArgs {
  @Description('Words to look for')
  @IsString()
  @MinLength(1)
  query!: string;

  @Description('States to include')
  @IsIn(['open', 'closed'], { each: true })
  states: ('open' | 'closed')[] = ['open'];

  @Description('Most results to return')
  @IsInt()
  @Min(1)
  @Max(100)
  limit = 20;
}

export class SearchResult {
  @ValidateNested({ each: true })
  @Type(() => IssueResult)
  issues!: IssueResult[];

  @IsInt()
  @Min(0)
  total!: number;
}

export class CommentArgs {
  @Description('The issue, by number or by key such as "WEB-12"')
  @UnionOf([Number, String])
  issue!: number | string;

  @IsString()
  @MinLength(1)
  body!: string;
}

export class ScheduleArgs {
  @IsInt()
  @Min(1)
  issue!: number;

  @Description('Where the issue is planned')
  @UnionOf({ discriminator: 'kind', cases: { milestone: MilestoneTarget, sprint: SprintTarget } })
  target!: MilestoneTarget | SprintTarget;
}

export class LinkArgs {
  @IsInt()
  @Min(1)
  issue!: number;

  @Description('Links by name')
  @MapOf(() => Link)
  links!: Record<string, Link>;
}

export class PlanArgs {
  @IsInt()
  @Min(1)
  issue!: number;

  @ValidateNested({ each: true })
  @Type(() => Task)
  tasks!: Task[];
}
