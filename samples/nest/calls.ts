import {
  Injectable,
  Module,
  Scope,
  UseGuards,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { type Observable, tap } from 'rxjs';
import { ReadOnly, Tool, type CallContext } from 'toolwright';
import { toolCallOf } from 'toolwright/nest';

/** Remembers every tool call that went through the audit interceptor, in order. */
@Injectable()
export class AuditLog {
  readonly entries: string[] = [];
}

/** A global interceptor (APP_INTERCEPTOR): wraps every tool call and logs how it ended. */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(private readonly log: AuditLog) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const call = toolCallOf(context);
    const name = call?.tool ?? context.getType();
    return next.handle().pipe(
      tap({
        next: () => void this.log.entries.push(`${name}: ok`),
        error: (error: Error) => void this.log.entries.push(`${name}: ${error.message}`),
      }),
    );
  }
}

/** The users the bearer tokens stand for (a stand-in for a real authentication service). */
const USERS: ReadonlyMap<string, { name: string }> = new Map([
  ['token-ada', { name: 'Ada' }],
  ['token-alan', { name: 'Alan' }],
]);

/**
 * An auth guard as a Nest app has for its HTTP routes: it reads the HTTP request's bearer token
 * and puts the user on `request.user`. Over stdio there is no request, so it refuses.
 */
@Injectable()
export class BearerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | undefined>; user?: unknown } | undefined>();
    const token = request?.headers.authorization?.replace(/^Bearer /, '');
    const user = token === undefined ? undefined : USERS.get(token);
    if (request === undefined || user === undefined) return false;
    request.user = user;
    return true;
  }
}

@Injectable()
@Tool({ name: 'whoami', description: 'Say who the caller is (needs a bearer token over HTTP)', args: undefined })
@ReadOnly()
@UseGuards(BearerGuard)
export class WhoAmITool {
  execute(_args: object, ctx: CallContext): string {
    const request = toolCallOf(ctx)?.request as { user?: { name: string } } | undefined;
    return `you are ${request?.user?.name ?? 'nobody'}`;
  }
}

@Injectable()
@Tool({ name: 'audit_log', description: 'List the tool calls seen so far' })
@ReadOnly()
export class AuditLogTool {
  constructor(private readonly log: AuditLog) {}

  execute(): string {
    return this.log.entries.join('\n');
  }
}

let instances = 0;

export class CountArgs {
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  waitMs: number = 0;
}

/** Request-scoped: Nest builds a fresh instance for every call. */
@Injectable({ scope: Scope.REQUEST })
@Tool({
  name: 'instance',
  description: 'Report which instance of this request-scoped tool served the call',
  args: CountArgs,
})
@ReadOnly()
export class InstanceTool {
  private readonly id = ++instances;

  async execute(args: CountArgs, ctx: CallContext): Promise<string> {
    if (args.waitMs > 0) await sleep(args.waitMs, ctx.signal);
    return `instance ${this.id}`;
  }
}

export class SleepArgs {
  @IsInt()
  @Min(0)
  @Max(60_000)
  ms!: number;
}

@Injectable()
@Tool({ name: 'sleep', description: 'Wait, then say so (or say it was woken early)', args: SleepArgs })
@ReadOnly()
export class SleepTool {
  async execute(args: SleepArgs, ctx: CallContext): Promise<string> {
    ctx.log('info', `sleeping ${args.ms} ms`);
    const finished = await sleep(args.ms, ctx.signal);
    return finished ? `slept ${args.ms} ms` : 'woken early';
  }
}

/** Resolves `true` after `ms`, or `false` as soon as `signal` fires. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => resolve(true), ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve(false);
      },
      { once: true },
    );
  });
}

@Module({
  providers: [
    AuditLog,
    { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
    BearerGuard,
    WhoAmITool,
    AuditLogTool,
    InstanceTool,
    SleepTool,
  ],
})
export class CallsModule {}
