import type { Migration } from 'kysely';
import * as m0001 from './0001_init.ts';
import * as m0006 from './0006_engine.ts';

/** Every migration, in order. Add new ones here as 0002_..., never edit an applied one. */
export const migrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0006_engine': m0006,
};
