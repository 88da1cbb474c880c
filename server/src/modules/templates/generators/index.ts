import type { TemplateGenerator } from './generator.ts';
import { roomAvailabilityGenerator } from './room-availability.ts';

/** Every generator, by id. Adding one is adding a line here. */
export const templateGenerators: ReadonlyMap<string, TemplateGenerator> = new Map(
  [roomAvailabilityGenerator].map((g) => [g.id, g]),
);

export { GeneratorInputError, type TemplateGenerator } from './generator.ts';
