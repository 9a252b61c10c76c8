import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BadRequestException,
  Catch,
  Inject,
  Injectable,
  Module,
  Scope,
  UseFilters,
  UseGuards,
  UseInterceptors,
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type INestApplication,
  type NestInterceptor,
} from '@nestjs/common';
import { NestFactory, REQUEST } from '@nestjs/core';
import { IsInt, IsString, Min } from 'class-validator';
import { map, type Observable } from 'rxjs';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Complete,
  Prompt,
  ResourceTemplate,
  StaticResource,
  type CallContext,
  type ResourceContext,
} from '../src/index.js';
import { ToolwrightModule, ToolwrightServer, toolCallOf, type NestToolCall } from '../src/nest/index.js';
import { startedInMemory } from './support/nest-context.js';
import { ERA_CLIENT_KINDS, connectFeatureClient } from './support/feature-clients.js';
import { until } from './support/server-harness.js';

/*
 * Resources, templates and prompts in a Nest application: discovered as providers, made by Nest
 * (dependency injection, request scope), read and rendered inside Nest's guards, interceptors and
 * exception filters, announced changes through ToolwrightServer.changes; in memory (transport
 * 'none') and over HTTP to the clients of both eras.
 */

const TIMEOUT = { timeout: 60_000 };
const SERVING = { name: 'nest-features', version: '1.0.0', transport: 'none' } as const;

@Injectable()
class Library {
  titleOf(id: number): string {
    return `Book ${id}`;
  }
}

class BookVars {
  @IsInt()
  @Min(1)
  id!: number;
}

const seen: NestToolCall[] = [];

/** Records the call it guards; refuses a book above 100. */
@Injectable()
class BookGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const call = toolCallOf(context)!;
    seen.push(call);
    return !(Number((call.arguments as { id?: unknown }).id) > 100);
  }
}

@Catch(BadRequestException)
class BadVariablesFilter implements ExceptionFilter {
  catch(exception: BadRequestException, _host: ArgumentsHost): string {
    return `bad variables: ${String((exception.getResponse() as { message?: unknown }).message)}`;
  }
}

@Injectable()
@ResourceTemplate({ uriTemplate: 'books://{id}', mimeType: 'text/plain', args: BookVars })
@UseGuards(BookGuard)
class BookResource {
  constructor(private readonly library: Library) {}
  read(vars: BookVars, ctx: ResourceContext): string {
    return `${this.library.titleOf(vars.id)} (${ctx.uri})`;
  }
  @Complete('id')
  ids(value: string): string[] {
    return ['1', '2'].filter((id) => id.startsWith(value));
  }
}

@Injectable()
@ResourceTemplate({ uriTemplate: 'shelves://{id}', args: BookVars })
@UseFilters(BadVariablesFilter)
class ShelfResource {
  read(vars: BookVars): string {
    return `shelf ${vars.id}`;
  }
}

@Injectable()
@StaticResource({ uri: 'library://catalogue', mimeType: 'text/plain' })
class CatalogueResource {
  read(): string {
    return 'the catalogue';
  }
}

@Injectable()
class Shouting implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((output) => String(output).toUpperCase()));
  }
}

class TopicArgs {
  @IsString()
  topic!: string;
}

let summaries = 0;

/** Request-scoped: made for each rendering, with the call as its REQUEST (no HTTP request in memory). */
@Injectable({ scope: Scope.REQUEST })
@Prompt({ name: 'summary', description: 'Summarise a topic', args: TopicArgs })
class SummaryPrompt {
  private readonly instance = ++summaries;
  constructor(@Inject(REQUEST) private readonly request: NestToolCall) {}
  @UseInterceptors(Shouting)
  messages(args: TopicArgs): string {
    return `summarise ${args.topic} (instance ${this.instance}, ${this.request.kind} ${this.request.tool})`;
  }
}

@Module({
  providers: [Library, BookGuard, BookResource, ShelfResource, CatalogueResource, Shouting, SummaryPrompt],
})
class FeaturesModule {}

test(
  'resource, template and prompt providers are discovered and served with the instances Nest made',
  TIMEOUT,
  async () => {
    const { client, close } = await startedInMemory(FeaturesModule, SERVING);
    try {
      assert.deepEqual(client.getServerCapabilities()?.resources, { subscribe: true, listChanged: true });
      assert.deepEqual(await client.listResources(), {
        resources: [{ uri: 'library://catalogue', name: 'catalogue', mimeType: 'text/plain' }],
      });
      assert.deepEqual(
        (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
        ['books://{id}', 'shelves://{id}'],
      );
      assert.deepEqual(await client.readResource({ uri: 'books://7' }), {
        contents: [{ uri: 'books://7', mimeType: 'text/plain', text: 'Book 7 (books://7)' }],
      });
      assert.deepEqual(await client.readResource({ uri: 'library://catalogue' }), {
        contents: [{ uri: 'library://catalogue', mimeType: 'text/plain', text: 'the catalogue' }],
      });
      assert.deepEqual(
        await client.complete({
          ref: { type: 'ref/resource', uri: 'books://{id}' },
          argument: { name: 'id', value: '' },
        }),
        { completion: { values: ['1', '2'] } },
      );
    } finally {
      await close();
    }
  },
);

test(
  'a read runs inside the guards, which see the call; a refused one is an error; a filter answers invalid variables',
  TIMEOUT,
  async () => {
    const { client, close } = await startedInMemory(FeaturesModule, SERVING);
    seen.length = 0;
    try {
      await client.readResource({ uri: 'books://3' });
      assert.deepEqual(
        seen.map((call) => ({ tool: call.tool, kind: call.kind, arguments: call.arguments })),
        [{ tool: 'book', kind: 'resource', arguments: { uri: 'books://3', id: '3' } }],
      );
      await assert.rejects(client.readResource({ uri: 'books://101' }), {
        code: -32603,
        message: 'MCP error -32603: Forbidden resource',
      });
      // Without a filter, invalid variables are -32602, as everywhere; with one, its answer is the content.
      await assert.rejects(client.readResource({ uri: 'books://x' }), {
        code: -32602,
        message: 'MCP error -32602: invalid arguments: /id: must be integer',
      });
      assert.deepEqual(await client.readResource({ uri: 'shelves://x' }), {
        contents: [{ uri: 'shelves://x', text: 'bad variables: invalid arguments: /id: must be integer' }],
      });
    } finally {
      await close();
    }
  },
);

test(
  'a request-scoped prompt is made for each rendering, inside the interceptors of its messages method',
  TIMEOUT,
  async () => {
    const { client, close } = await startedInMemory(FeaturesModule, SERVING);
    try {
      const first = summaries;
      assert.deepEqual(await client.getPrompt({ name: 'summary', arguments: { topic: 'cats' } }), {
        messages: [
          { role: 'user', content: { type: 'text', text: `SUMMARISE CATS (INSTANCE ${first + 1}, PROMPT SUMMARY)` } },
        ],
      });
      await client.getPrompt({ name: 'summary', arguments: { topic: 'dogs' } });
      assert.equal(summaries, first + 2);
      await assert.rejects(client.getPrompt({ name: 'summary', arguments: {} }), {
        code: -32602,
        message: 'MCP error -32602: invalid arguments: /: must have required property "topic"',
      });
      // A refused rendering never made an instance.
      assert.equal(summaries, first + 2);
    } finally {
      await close();
    }
  },
);

test('ToolwrightServer.changes tells subscribed clients that a resource changed', TIMEOUT, async () => {
  const { client, app, close } = await startedInMemory(FeaturesModule, SERVING);
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => void updates.push(note.params.uri));
  try {
    await client.subscribeResource({ uri: 'books://1' });
    app.get(ToolwrightServer).changes.resourceUpdated('books://2');
    app.get(ToolwrightServer).changes.resourceUpdated('books://1');
    await until(() => updates.length === 1);
    assert.deepEqual(updates, ['books://1']);
  } finally {
    await close();
  }
});

test(
  'over HTTP, clients of both eras read a template resource, render a prompt and hear of an update',
  TIMEOUT,
  async () => {
    @Module({
      imports: [
        FeaturesModule,
        ToolwrightModule.forRoot({ name: 'nest-features', version: '1.0.0', transport: 'http' }),
      ],
    })
    class HttpRoot {}
    const app: INestApplication = await NestFactory.create(HttpRoot, { logger: false, abortOnError: false });
    await app.listen(0, '127.0.0.1');
    const url = new URL(`${await app.getUrl()}/mcp`.replace('[::1]', '127.0.0.1'));
    try {
      for (const kind of ERA_CLIENT_KINDS) {
        const client = await connectFeatureClient(kind, { url });
        try {
          assert.deepEqual(
            await client.request('resources/read', { uri: 'books://4' }),
            {
              contents: [{ uri: 'books://4', mimeType: 'text/plain', text: 'Book 4 (books://4)' }],
            },
            kind,
          );
          const rendered = await client.request('prompts/get', { name: 'summary', arguments: { topic: 'owls' } });
          // Over HTTP the request-scoped prompt's REQUEST is the HTTP request, which names no call.
          assert.match(JSON.stringify(rendered), /"text":"SUMMARISE OWLS \(INSTANCE \d+, UNDEFINED UNDEFINED\)"/, kind);
          const subscription = await client.subscribe('books://4');
          app.get(ToolwrightServer).changes.resourceUpdated('books://4');
          await until(() => subscription.updates.length === 1, 300);
          assert.deepEqual(subscription.updates, ['books://4'], kind);
          await subscription.close();
        } finally {
          await client.close();
        }
      }
    } finally {
      await app.close();
    }
    void (null as unknown as CallContext);
  },
);
