/** ms since the epoch as an ISO 8601 string. */
export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : iso(ms));
/** An ISO 8601 string (already validated by the schema) as ms since the epoch. */
export const msOrNull = (value: string | null | undefined): number | null => (value == null ? null : Date.parse(value));

/** True for a unique-constraint violation on either dialect. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err.code === '23505' || err.code === 'SQLITE_CONSTRAINT_UNIQUE' || err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

