import { Catch, Injectable, Module, NotFoundException, UseFilters, type ExceptionFilter } from '@nestjs/common';
import { IsString } from 'class-validator';
import { ReadOnly, Tool, type ToolResult } from 'toolwright';

/** Thrown by the orders service for an order that cannot be changed right now. */
export class OrderLockedError extends Error {
  constructor(readonly orderId: string) {
    super(`order ${orderId} is locked`);
  }
}

@Injectable()
export class OrdersService {
  private readonly orders = new Map([
    ['A-1', { id: 'A-1', item: 'teapot', status: 'shipped' }],
    ['A-2', { id: 'A-2', item: 'kettle', status: 'locked' }],
  ]);

  find(id: string): { id: string; item: string; status: string } {
    const order = this.orders.get(id);
    if (order === undefined) throw new NotFoundException(`no order ${id}`);
    if (order.status === 'locked') throw new OrderLockedError(id);
    return order;
  }
}

/**
 * Turns `OrderLockedError` into a result the model can act on (an exception filter's return value
 * is the tool's output).
 */
@Catch(OrderLockedError)
export class OrderLockedFilter implements ExceptionFilter {
  catch(error: OrderLockedError): ToolResult {
    return {
      content: [{ type: 'text', text: `order ${error.orderId} is being edited; try again in a minute` }],
      isError: true,
    };
  }
}

export class FindOrderArgs {
  @IsString()
  id!: string;
}

@Injectable()
@Tool({ name: 'find_order', description: 'Look an order up by its id', args: FindOrderArgs })
@ReadOnly()
@UseFilters(OrderLockedFilter)
export class FindOrderTool {
  constructor(private readonly orders: OrdersService) {}

  execute(args: FindOrderArgs): ToolResult {
    const order = this.orders.find(args.id);
    return {
      content: [{ type: 'text', text: `${order.id}: ${order.item} (${order.status})` }],
      structuredContent: order,
    };
  }
}

@Module({ providers: [OrdersService, FindOrderTool] })
export class OrdersModule {}
