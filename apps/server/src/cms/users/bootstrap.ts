import type { ServerContext } from '../../context.ts';
import { randomPassword } from './passwords.ts';
import { countUsers } from './queries.ts';
import { insertCmsUser } from './service.ts';

export const DEFAULT_ADMIN_EMAIL = 'admin@fanfare.local';

/**
 * Creates the first admin of a fresh install (no back-office user yet) from ADMIN_EMAIL and
 * ADMIN_PASSWORD. Without a password one is generated and printed once (there is no default), and
 * the admin must set up their account (own name, e-mail, password) at the first sign-in: the
 * printed password may linger in a terminal or a log.
 */
export async function ensureFirstAdmin(ctx: ServerContext): Promise<void> {
  if ((await countUsers(ctx.db)) > 0) return;
  // In production a printed password would sit in the service's log, and whoever reads the log
  // first could sign in and set up the admin account: the operator chooses it instead.
  if (ctx.config.production && !ctx.config.cms.adminPassword) {
    throw new Error(
      'Refusing to start with NODE_ENV=production:\n  the first back-office admin would get a printed password: set ADMIN_PASSWORD (at least 12 characters) and ADMIN_EMAIL for the first start.',
    );
  }
  const email = ctx.config.cms.adminEmail ?? DEFAULT_ADMIN_EMAIL;
  const generated = ctx.config.cms.adminPassword ? null : randomPassword();
  try {
    await insertCmsUser(ctx, { email, name: 'Admin', password: ctx.config.cms.adminPassword ?? generated, roles: ['admin'], state: 'active', mustChangePassword: generated !== null });
  } catch (e) {
    // Another node of the cluster created it at the same moment.
    if ((await countUsers(ctx.db)) > 0) return;
    throw e;
  }
  ctx.logger.info({ email }, 'created the first back-office admin');
  if (generated && ctx.config.logLevel !== 'silent') {
    process.stdout.write(
      `\n  First back-office admin created:\n    e-mail:   ${email}\n    password: ${generated}\n  (shown once; sign in at ${ctx.config.cmsPublicUrl}/admin/ to choose your own)\n\n`,
    );
  }
}
