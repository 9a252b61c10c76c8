import { Module, type DynamicModule } from '@nestjs/common';
import { ToolwrightModule, type ToolwrightTransport } from 'toolwright/nest';
import { CallsModule } from './calls.js';
import { GreetingModule } from './greeting.js';
import { OrdersModule } from './orders.js';

/** The sample application: three feature modules with tools, served by ToolwrightModule. */
@Module({})
export class AppModule {
  static serving(transport: ToolwrightTransport): DynamicModule {
    return {
      module: AppModule,
      imports: [
        GreetingModule,
        OrdersModule,
        CallsModule,
        ToolwrightModule.forRoot({ name: 'nest-sample', version: '1.0.0', transport, path: '/mcp' }),
      ],
    };
  }
}
