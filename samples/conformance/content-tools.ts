import { audio, embeddedText, image, text, Tool, ReadOnly, type ContentPart } from '../../src/index.js';
import { RED_PIXEL_PNG, SILENT_WAV } from './media.js';

/**
 * The conformance suite's content tools (scenarios tools-call-simple-text, -image, -audio,
 * -embedded-resource, -mixed-content): no arguments, fixed content of each MCP content type.
 */

@Tool({ name: 'test_simple_text', description: 'Returns one fixed text item.' })
@ReadOnly()
export class TestSimpleText {
  async execute(): Promise<string> {
    return 'This is a simple text response for testing.';
  }
}

@Tool({ name: 'test_image_content', description: 'Returns a 1x1 red PNG image.' })
@ReadOnly()
export class TestImageContent {
  async execute(): Promise<ContentPart[]> {
    return [image(RED_PIXEL_PNG, 'image/png')];
  }
}

@Tool({ name: 'test_audio_content', description: 'Returns 10 ms of silence as audio/wav.' })
@ReadOnly()
export class TestAudioContent {
  async execute(): Promise<ContentPart[]> {
    return [audio(SILENT_WAV, 'audio/wav')];
  }
}

@Tool({ name: 'test_embedded_resource', description: 'Returns an embedded text resource.' })
@ReadOnly()
export class TestEmbeddedResource {
  async execute(): Promise<ContentPart[]> {
    return [embeddedText('test://embedded-resource', 'This is an embedded resource content.', 'text/plain')];
  }
}

@Tool({ name: 'test_multiple_content_types', description: 'Returns text, an image and an embedded resource.' })
@ReadOnly()
export class TestMultipleContentTypes {
  async execute(): Promise<ContentPart[]> {
    return [
      text('Multiple content types test:'),
      image(RED_PIXEL_PNG, 'image/png'),
      embeddedText('test://mixed-content-resource', JSON.stringify({ test: 'data', value: 123 }), 'application/json'),
    ];
  }
}
