import type { ColumnDefinitionBuilder } from 'kysely';

/**
 * Column conventions shared by both dialects: ids are text, times are bigint milliseconds since the
 * epoch, booleans are integers 0/1, JSON documents are text. One migration set then runs unchanged
 * on SQLite and PostgreSQL.
 */
export const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
export const bool = (fallback: boolean) => (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(fallback ? 1 : 0);

export const toBool = (v: number | boolean | null | undefined): boolean => v === 1 || v === true;
export const fromBool = (v: boolean): number => (v ? 1 : 0);

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null || text === '') return fallback;
  return JSON.parse(text) as T;
}
