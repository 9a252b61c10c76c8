import { IsString } from 'class-validator';
import {
  Complete,
  Description,
  Prompt,
  assistantMessage,
  embeddedText,
  image,
  userMessage,
  type CallContext,
  type PromptMessage,
} from '../../src/index.js';
import { RED_PIXEL_PNG } from './media.js';

/**
 * The conformance suite's prompts (scenarios prompts-list, -get-simple, -get-with-args,
 * -get-embedded-resource, -get-with-image, completion-complete, and the 2026-07-28
 * input-required-result-non-tool-request).
 */

@Prompt({ name: 'test_simple_prompt', description: 'A prompt without arguments.' })
export class TestSimplePrompt {
  messages(): string {
    return 'This is a simple prompt for testing.';
  }
}

/** The arguments of `test_prompt_with_arguments`. */
export class PromptArgs {
  @Description('First test argument')
  @IsString()
  arg1!: string;

  @Description('Second test argument')
  @IsString()
  arg2!: string;
}

@Prompt({ name: 'test_prompt_with_arguments', description: 'A prompt with two arguments.', args: PromptArgs })
export class TestPromptWithArguments {
  messages(args: PromptArgs): string {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }

  @Complete('arg1')
  firstArguments(value: string): string[] {
    return ['paris', 'park', 'party'].filter((word) => word.startsWith(value));
  }
}

/** The argument of `test_prompt_with_embedded_resource`. */
export class EmbeddedArgs {
  @Description('URI of the resource to embed')
  @IsString()
  resourceUri!: string;
}

@Prompt({
  name: 'test_prompt_with_embedded_resource',
  description: 'A prompt that embeds a resource.',
  args: EmbeddedArgs,
})
export class TestPromptWithEmbeddedResource {
  messages(args: EmbeddedArgs): PromptMessage[] {
    return [
      userMessage(embeddedText(args.resourceUri, 'Embedded resource content for testing.', 'text/plain')),
      userMessage('Please process the embedded resource above.'),
    ];
  }
}

@Prompt({ name: 'test_prompt_with_image', description: 'A prompt with an image.' })
export class TestPromptWithImage {
  messages(): PromptMessage[] {
    return [userMessage(image(RED_PIXEL_PNG, 'image/png')), userMessage('Please analyze the image above.')];
  }
}

@Prompt({
  name: 'test_input_required_result_prompt',
  description: 'A prompt that asks the user for context first (an input round in 2026-07-28).',
})
export class TestInputRequiredResultPrompt {
  async messages(_args: unknown, ctx: CallContext): Promise<PromptMessage[]> {
    const answer = await ctx.elicit({
      key: 'user_context',
      message: 'What context should the prompt use?',
      schema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
    });
    const context = answer.action === 'accept' ? String(answer.content?.context ?? '') : '(none given)';
    return [userMessage(`Use this context: ${context}`), assistantMessage('Understood.')];
  }
}
