/**
 * Back-office user administration from the command line:
 *   npx tsx apps/server/src/cms/users/cli.ts create-admin <email> [name]
 * The password comes from ADMIN_PASSWORD, else a random one is printed once and the admin must
 * set up their account (own password) at the next sign-in.
 * Uses the same configuration (DATABASE_URL, DATA_DIR) as the server.
 */
import { loadConfig } from '../../platform/config.ts';
import { migrateToLatest, openDatabase } from '../../platform/db/database.ts';
import { createLogger } from '../../platform/logger.ts';
import type { ServerContext } from '../../context.ts';
import { hashPassword, randomPassword } from './passwords.ts';
import { findUserByEmail } from './queries.ts';
import { insertCmsUser } from './service.ts';

async function main(): Promise<void> {
  const [command, email, name] = process.argv.slice(2);
  if (command !== 'create-admin' || !email) {
    process.stderr.write('usage: cli.ts create-admin <email> [name]\n');
    process.exit(2);
  }
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database.db);
  const ctx = { config, db: database.db, logger: createLogger('silent'), now: () => Date.now() } as unknown as ServerContext;
  const password = config.cms.adminPassword ?? randomPassword();
  const mustChangePassword = !config.cms.adminPassword;
  const existing = await findUserByEmail(database.db, email);
  if (existing) {
    // Promote and re-activate an existing user, with the new password.
    await database.db
      .updateTable('cms_users')
      .set({ roles: JSON.stringify(['admin']), state: 'active', password_hash: await hashPassword(password), must_change_password: mustChangePassword ? 1 : 0, updated_at: Date.now() })
      .where('id', '=', existing.id)
      .execute();
  } else {
    await insertCmsUser(ctx, { email, name: name ?? 'Admin', password, roles: ['admin'], state: 'active', mustChangePassword });
  }
  process.stdout.write(`admin ${email} ready${config.cms.adminPassword ? '' : `, password: ${password}`}\n`);
  await database.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
