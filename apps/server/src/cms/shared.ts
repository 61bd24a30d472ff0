import type { ServerContext } from '../context.ts';
import { createMailer, type Mailer } from '../platform/mail.ts';

/** ms since the epoch as an ISO 8601 string. */
export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : iso(ms));
/** An ISO 8601 string (already validated by the schema) as ms since the epoch. */
export const msOrNull = (value: string | null | undefined): number | null => (value == null ? null : Date.parse(value));

const mailers = new WeakMap<ServerContext, Mailer>();

/** The process's mailer (SMTP from configuration, or the local outbox), made on first use. */
export function mailerOf(ctx: ServerContext): Mailer {
  let mailer = mailers.get(ctx);
  if (!mailer) {
    mailer = createMailer(ctx.config);
    if (ctx.metrics) mailer = ctx.metrics.meterMailer(mailer);
    mailers.set(ctx, mailer);
  }
  return mailer;
}

/** True for a unique-constraint violation on either dialect. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err.code === '23505' || err.code === 'SQLITE_CONSTRAINT_UNIQUE' || err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

