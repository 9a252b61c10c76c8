import { IsString } from 'class-validator';
import { Complete, Description, ResourceTemplate, StaticResource } from '../../src/index.js';
import { RED_PIXEL_PNG } from './media.js';

/**
 * The conformance suite's resources (scenarios resources-list, -read-text, -read-binary,
 * -templates-read, -subscribe, -unsubscribe, and the caching hints of the 2026-07-28 suite):
 * two resources with fixed URIs, a template, and a resource to subscribe to.
 */

@StaticResource({
  uri: 'test://static-text',
  name: 'static_text',
  description: 'A fixed text resource.',
  mimeType: 'text/plain',
})
export class StaticTextResource {
  read(): string {
    return 'This is the content of the static text resource.';
  }
}

@StaticResource({
  uri: 'test://static-binary',
  name: 'static_binary',
  description: 'A fixed binary resource: a 1x1 red PNG.',
  mimeType: 'image/png',
})
export class StaticBinaryResource {
  read(): Uint8Array {
    return Buffer.from(RED_PIXEL_PNG, 'base64');
  }
}

/** The variables of `test://template/{id}/data`. */
export class TemplateVars {
  @Description('Any id; the content names it')
  @IsString()
  id!: string;
}

@ResourceTemplate({
  uriTemplate: 'test://template/{id}/data',
  name: 'template_data',
  description: 'JSON data for any id.',
  mimeType: 'application/json',
  args: TemplateVars,
})
export class TemplateDataResource {
  read(vars: TemplateVars): string {
    return JSON.stringify({ id: vars.id, templateTest: true, data: `Data for ID: ${vars.id}` });
  }

  @Complete('id')
  ids(value: string): string[] {
    return ['123', '456', '789'].filter((id) => id.startsWith(value));
  }
}

@StaticResource({
  uri: 'test://watched-resource',
  name: 'watched_resource',
  description: 'A resource clients may subscribe to.',
  mimeType: 'text/plain',
})
export class WatchedResource {
  read(): string {
    return 'This resource may change; subscribe to hear of it.';
  }
}
