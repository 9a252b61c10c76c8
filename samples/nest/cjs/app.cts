// The CommonJS flavour of the NestJS sample: the same kind of application, compiled to CommonJS
// (as `nest new` configures it), loading toolwright and toolwright/nest through require(esm).
import {
  Catch,
  Injectable,
  Module,
  NotFoundException,
  Scope,
  UseFilters,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type DynamicModule,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { map, type Observable } from 'rxjs';
import { ReadOnly, Tool, type CallContext, type ToolResult } from 'toolwright';
import { toolCallOf, ToolwrightModule, type ToolwrightTransport } from 'toolwright/nest';

@Injectable()
export class InventoryService {
  private readonly stock = new Map([
    ['teapot', 3],
    ['kettle', 0],
  ]);

  count(item: string): number {
    const count = this.stock.get(item);
    if (count === undefined) throw new NotFoundException(`no item called ${item}`);
    return count;
  }
}

/** Thrown when an item is out of stock; the filter below turns it into advice. */
export class OutOfStockError extends Error {}

@Catch(OutOfStockError)
export class OutOfStockFilter implements ExceptionFilter {
  catch(error: OutOfStockError): ToolResult {
    return { content: [{ type: 'text', text: `${error.message}; try the kettle shop` }], isError: true };
  }
}

/** Adds the tool's name to its text output. */
@Injectable()
export class SignInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((output) => `${String(output)} [${toolCallOf(context)?.tool}]`));
  }
}

export class StockArgs {
  @IsString()
  item!: string;
}

@Injectable()
@Tool({ name: 'stock', description: 'How many of an item are in stock', args: StockArgs })
@ReadOnly()
@UseInterceptors(SignInterceptor)
@UseFilters(OutOfStockFilter)
export class StockTool {
  constructor(private readonly inventory: InventoryService) {}

  execute(args: StockArgs): string {
    const count = this.inventory.count(args.item);
    if (count === 0) throw new OutOfStockError(`${args.item} is out of stock`);
    return `${count} ${args.item}s`;
  }
}

/** Lets a call through only with the bearer token `token-ada`, and puts the user on the request. */
@Injectable()
export class BearerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | undefined>; user?: unknown } | undefined>();
    if (request?.headers.authorization !== 'Bearer token-ada') return false;
    request.user = { name: 'Ada' };
    return true;
  }
}

@Injectable()
@Tool({ name: 'whoami', description: 'Say who the caller is', args: undefined })
@UseGuards(BearerGuard)
export class WhoAmITool {
  execute(_args: object, ctx: CallContext): string {
    const request = toolCallOf(ctx)?.request as { user?: { name: string } } | undefined;
    return `you are ${request?.user?.name ?? 'nobody'}`;
  }
}

let instances = 0;

@Injectable({ scope: Scope.REQUEST })
@Tool({ name: 'instance', description: 'Which instance of this request-scoped tool served the call', args: undefined })
export class InstanceTool {
  private readonly id = ++instances;

  execute(): string {
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
@Tool({ name: 'sleep', description: 'Wait, then say so', args: SleepArgs })
export class SleepTool {
  async execute(args: SleepArgs, ctx: CallContext): Promise<string> {
    ctx.log('info', `sleeping ${args.ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, args.ms));
    return `slept ${args.ms} ms`;
  }
}

@Module({ providers: [InventoryService, StockTool, BearerGuard, WhoAmITool, InstanceTool, SleepTool] })
export class ShopModule {}

@Module({})
export class AppModule {
  static serving(transport: ToolwrightTransport): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ShopModule,
        ToolwrightModule.forRoot({ name: 'nest-cjs-sample', version: '1.0.0', transport, path: '/mcp' }),
      ],
    };
  }
}
