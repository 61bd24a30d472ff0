import type { Kysely } from 'kysely';
import { bool } from '../columns.ts';

/**
 * The back office, issue 13:
 * - each consent keeps the exact consent text the fan was shown, so the ledger and its CSV still
 *   show those words after the campaign's text changes (null on consents recorded before);
 * - a back-office user may be required to set up their account (name, e-mail, own password) before
 *   anything else: the first admin created with a generated password.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cms_newsletter_consents').addColumn('consent_text', 'text').execute();
  await db.schema.alterTable('cms_users').addColumn('must_change_password', 'integer', bool(false)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cms_users').dropColumn('must_change_password').execute();
  await db.schema.alterTable('cms_newsletter_consents').dropColumn('consent_text').execute();
}
