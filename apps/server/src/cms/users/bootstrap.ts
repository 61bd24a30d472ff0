import type { ServerContext } from '../../context.ts';
import { randomPassword } from './passwords.ts';
import { countUsers } from './queries.ts';
import { insertCmsUser } from './service.ts';

export const DEFAULT_ADMIN_EMAIL = 'admin@fanfare.local';

/**
 * Creates the first admin of a fresh install (no back-office user yet) from ADMIN_EMAIL and
 * ADMIN_PASSWORD. Without a password one is generated and printed once; there is no default.
 */
export async function ensureFirstAdmin(ctx: ServerContext): Promise<void> {
  if ((await countUsers(ctx.db)) > 0) return;
  const email = ctx.config.cms.adminEmail ?? DEFAULT_ADMIN_EMAIL;
  const generated = ctx.config.cms.adminPassword ? null : randomPassword();
  try {
    await insertCmsUser(ctx, { email, name: 'Admin', password: ctx.config.cms.adminPassword ?? generated, roles: ['admin'], state: 'active' });
  } catch (e) {
    // Another node of the cluster created it at the same moment.
    if ((await countUsers(ctx.db)) > 0) return;
    throw e;
  }
  ctx.logger.info({ email }, 'created the first back-office admin');
  if (generated && ctx.config.logLevel !== 'silent') {
    process.stdout.write(
      `\n  First back-office admin created:\n    e-mail:   ${email}\n    password: ${generated}\n  (shown once; change it with a password reset)\n\n`,
    );
  }
}
