import type { TemplateGeneratorInfo, TemplateSample } from '@resort/shared';

/** A source URL the generator cannot use; the service answers it as 400 with this message. */
export class GeneratorInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GeneratorInputError';
  }
}

/**
 * A template generator: from an optional source URL, a template sample the editor can apply.
 * Generators are pure (no network): they read the URL, they never fetch it.
 */
export interface TemplateGenerator extends TemplateGeneratorInfo {
  generate(input: { sourceUrl: string | undefined; now: Date }): TemplateSample;
}
