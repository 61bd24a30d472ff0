import type { Migration } from 'kysely';
import * as m001 from './001_foundation.ts';

/**
 * Every migration, in order. Names sort in application order; never rename an applied one.
 * Domains add theirs: 002_live (parties live), 003_chat, 004_cms.
 */
export const migrations: Record<string, Migration> = {
  '001_foundation': m001,
};
