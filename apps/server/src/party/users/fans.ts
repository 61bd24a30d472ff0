import type { Db } from '../../platform/db/database.ts';
import { queryOf } from '../../platform/db/queryOf.ts';
import { fromBool } from '../../platform/db/columns.ts';
import { newId } from '../../platform/tokens.ts';
import type { ProviderProfile, ProviderTokens } from '../../providers/providers.ts';
import type { Fan } from '../auth/sessions.ts';

/**
 * Creates or updates the fan of a streaming account, keyed by (service, service user id), and
 * stores the provider tokens so the fan's player can be driven and refreshed later.
 */
export async function upsertProviderFan(
  db: Db,
  service: 'spotify' | 'apple',
  profile: ProviderProfile,
  tokens: ProviderTokens | { accessToken: string; refreshToken: null; expiresAt: null },
  now: number,
): Promise<Fan> {
  const fields = {
    display_name: profile.displayName,
    email: profile.email,
    country: profile.country,
    premium: fromBool(profile.premium),
    profile_picture: profile.image,
    service_access_token: tokens.accessToken,
    service_refresh_token: tokens.refreshToken,
    service_expires_at: tokens.expiresAt,
    updated_at: now,
  };
  await db
    .insertInto('fans')
    .values({ id: newId(), service, service_user_id: profile.id, created_at: now, ...fields })
    .onConflict((oc) => oc.columns(['service', 'service_user_id']).doUpdateSet(fields))
    .execute();
  return db
    .selectFrom('fans')
    .selectAll()
    .where('service', '=', service)
    .where('service_user_id', '=', profile.id)
    .executeTakeFirstOrThrow();
}

/** The row of a fan without a streaming account (anonymous signups, fake-traffic fans). */
export function anonymousFanRow(id: string, displayName: string, now: number): Fan {
  return {
    id,
    service: null,
    service_user_id: null,
    display_name: displayName,
    email: null,
    country: null,
    premium: 0,
    profile_picture: null,
    service_access_token: null,
    service_refresh_token: null,
    service_expires_at: null,
    created_at: now,
    updated_at: now,
  };
}

const insertFanQuery = queryOf((db: Db, fan: Fan) => db.insertInto('fans').values(fan));

/** A fan without a streaming account, for parties that do not require login. */
export async function createAnonymousFan(db: Db, displayName: string, now: number): Promise<Fan> {
  const fan = anonymousFanRow(newId(), displayName, now);
  await insertFanQuery(db, fan);
  return fan;
}

export async function updateServiceTokens(db: Db, fanId: string, tokens: ProviderTokens, now: number): Promise<void> {
  await db
    .updateTable('fans')
    .set({
      service_access_token: tokens.accessToken,
      service_refresh_token: tokens.refreshToken,
      service_expires_at: tokens.expiresAt,
      updated_at: now,
    })
    .where('id', '=', fanId)
    .execute();
}
