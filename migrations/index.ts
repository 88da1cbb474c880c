import type { Migration } from 'kysely';
import * as m0001 from './0001_init.ts';

/** Every migration, in order. Add new ones here as 0002_..., never edit an applied one. */
export const migrations: Record<string, Migration> = {
  '0001_init': m0001,
};
