import {
  DUPLICATE_SIGNUP_ERROR,
  SERVICE_TOKEN_REFRESH_WINDOW_MS,
  type PartyUser,
  type PlayerService,
  type ServiceTokenResponse,
  type SignupBody,
  type SignupResponse,
  type SystemUser,
  type SystemUserResponse,
} from '@fanfare/protocol';
import type { Insertable } from 'kysely';
import type { ServerContext } from '../../context.ts';
import { fromBool, toBool } from '../../platform/db/columns.ts';
import type { Db } from '../../platform/db/database.ts';
import { queryOf } from '../../platform/db/queryOf.ts';
import type { PartyUserTable } from '../../platform/db/schema.ts';
import { conflict, forbidden, HttpError, notFound, unauthorized, unprocessable } from '../../platform/errors.ts';
import { ProviderError } from '../../providers/http.ts';
import { membershipOf, roleOf } from '../auth/membership.ts';
import { issueAccessToken, type Fan } from '../auth/sessions.ts';
import { grantsOfFan } from '../grants/service.ts';
import { chatProfileExtras } from '../chat/profile.ts';
import { checkSticker } from '../chat/messages/service.ts';
import { requirePartyCached } from '../parties/queries.ts';
import { fanTrackVotes } from '../timeline/queries.ts';
import { createAnonymousFan, updateServiceTokens } from './fans.ts';

/**
 * Signups in the party that already use the display name or (when given) the e-mail, other than
 * the fan's own. Built once (every signup asks): a null e-mail matches no row (`= NULL`).
 */
const signupClashesQuery = queryOf((db: Db, v: { partyId: string; fanId: string; displayName: string; email: string | null }) =>
  db
    .selectFrom('party_users')
    .select(['display_name', 'email'])
    .where('party_id', '=', v.partyId)
    .where('fan_id', '!=', v.fanId)
    .where((eb) => eb.or([eb('display_name', '=', v.displayName), eb('email', '=', v.email)])),
);

/** A new fan's signup (every anonymous signup writes one). */
const insertSignupQuery = queryOf((db: Db, row: Omit<Insertable<PartyUserTable>, 'can_chat'>) =>
  db.insertInto('party_users').values({ ...row, can_chat: 1 }),
);

/**
 * Signs a fan up for a party. Login-required parties need the fan's bearer; others create an
 * anonymous fan and return its token. A clash of display name or e-mail with another fan of the
 * party answers 409 DuplicateSignupError naming the fields; signing up again updates the profile.
 */
export async function signUp(ctx: ServerContext, partyId: string, fan: Fan | null, body: SignupBody): Promise<SignupResponse> {
  const party = await requirePartyCached(ctx.db, partyId);
  if (!fan && toBool(party.login_required)) throw unauthorized('This party requires a streaming login before signup');
  // The profile travels in `sender` of every chat message: only the party's stickers, and a
  // picture that is one of our uploads or an https URL (its length is bounded by the schema).
  checkSticker(party, body.profile_sticker, ['body', 'profile_sticker']);
  if (body.profile_picture && !isAcceptedPicture(ctx, body.profile_picture)) {
    throw unprocessable(['body', 'profile_picture'], 'Expected one of our upload URLs or an https URL');
  }
  const email = body.email ?? null;
  const { rows: clashes } = await signupClashesQuery(ctx.db, { partyId, fanId: fan?.id ?? '', displayName: body.display_name, email });
  const fields: string[] = [];
  if (email && clashes.some((c) => c.email === email)) fields.push('email');
  if (clashes.some((c) => c.display_name === body.display_name)) fields.push('display_name');
  if (fields.length) throw duplicateSignup(fields);

  const now = ctx.now();
  const profile = {
    real_name: body.real_name,
    display_name: body.display_name,
    email,
    country: body.country ?? null,
    profile_picture: body.profile_picture ?? null,
    profile_sticker: body.profile_sticker ?? null,
    competition_accepted: fromBool(body.competition_accepted ?? false),
  };
  const signUpAs = (db: Db, fanId: string, isNew: boolean) => {
    const row = { party_id: partyId, fan_id: fanId, created_at: now, ...profile };
    // A new fan has no signup to update: a plain insert (one statement kind the caches treat as an addition).
    if (isNew) return insertSignupQuery(db, row);
    return db
      .insertInto('party_users')
      .values({ ...row, can_chat: 1 })
      .onConflict((oc) => oc.columns(['party_id', 'fan_id']).doUpdateSet(profile))
      .execute();
  };
  let result: SignupResponse;
  try {
    if (fan) {
      await signUpAs(ctx.db, fan.id, false);
      result = { id: fan.id, access_token: null };
    } else {
      // An anonymous signup writes the fan, its token and its signup: one transaction, one commit
      // (issue 16), and no fan without a signup left behind when the signup is refused.
      result = await ctx.db.transaction().execute(async (trx) => {
        const created = await createAnonymousFan(trx, body.display_name, now);
        const token = await issueAccessToken(trx, created.id, now, ctx.config.accessTokenTtlMs);
        await signUpAs(trx, created.id, true);
        return { id: created.id, access_token: token };
      });
    }
  } catch (e) {
    // Two signups raced past the check above: the unique constraints decide.
    const text = String(e);
    if (/unique|duplicate/i.test(text)) throw duplicateSignup(/email/.test(text) ? ['email'] : ['display_name']);
    throw e;
  }
  return result;
}

function isAcceptedPicture(ctx: ServerContext, url: string): boolean {
  return url.startsWith(`${ctx.config.publicUrl}/uploads/`) || url.startsWith('/uploads/') || /^https:\/\/[^/\s]+\/\S*$/i.test(url);
}

function duplicateSignup(fields: string[]) {
  return conflict({ message: `Already taken in this party: ${fields.join(', ')}`, type: DUPLICATE_SIGNUP_ERROR, fields });
}

/** The fan's profile in a party; 403 until they signed up (the client then loads /api/users/me). */
export async function partyProfile(ctx: ServerContext, partyId: string, fan: Fan): Promise<PartyUser> {
  await requirePartyCached(ctx.db, partyId);
  // The cached standing the chat and the votes read too (the page loads this first).
  const membership = await membershipOf(ctx.db, partyId, fan);
  if (!membership.signup) throw forbidden('Not signed up for this party');
  const extras = await chatProfileExtras(ctx.db, partyId, fan.id);
  return toPartyUser(membership.signup, fan, roleOf(membership), Object.assign(extras, { track_votes: await fanTrackVotes(ctx.db, partyId, fan.id) }));
}

/** Shapes a signup row as the wire's PartyUser. Votes and answers come from their own domains. */
export function toPartyUser(
  row: PartyUserTable,
  fan: Pick<Fan, 'premium' | 'service'>,
  role: PartyUser['role'],
  extras: Partial<Pick<PartyUser, 'track_votes' | 'poll_answers' | 'quiz_answers' | 'quiz_score'>> = {},
): PartyUser {
  return {
    id: row.fan_id,
    real_name: row.real_name,
    display_name: row.display_name,
    email: row.email,
    premium: toBool(fan.premium),
    country: row.country,
    profile_sticker: row.profile_sticker,
    profile_picture: row.profile_picture,
    role,
    can_chat: toBool(row.can_chat),
    is_subscribed: true,
    service: (fan.service as PlayerService | null) ?? null,
    track_votes: extras.track_votes ?? [],
    poll_answers: extras.poll_answers ?? [],
    quiz_answers: extras.quiz_answers ?? [],
    quiz_score: extras.quiz_score ?? 0,
  };
}

/** The fan's system-wide profile, from their provider login. */
export async function systemProfile(ctx: ServerContext, fan: Fan, partyId?: string): Promise<SystemUserResponse> {
  if (!fan.service || !fan.service_user_id) throw notFound('This fan has no streaming account');
  const grants = await grantsOfFan(ctx.db, fan);
  // Asked with a party: the profile there too, null until signed up (a page's first load needs both).
  const partyUser = partyId === undefined ? undefined : await partyProfile(ctx, partyId, fan).catch((e: unknown) => {
    if (e instanceof HttpError && e.statusCode === 403) return null;
    throw e;
  });
  return {
    ...(partyUser === undefined ? {} : { party_user: partyUser }),
    id: fan.id,
    service: fan.service as SystemUser['service'],
    service_user_id: fan.service_user_id,
    display_name: fan.display_name,
    email: fan.email,
    country: fan.country,
    premium: toBool(fan.premium),
    profile_picture: fan.profile_picture,
    grants: grants.map((g) => ({ party_id: g.party_id, role: g.role as 'host' | 'admin' })),
  };
}

/**
 * The fan's streaming-service token. A Spotify token that expires within the refresh window is
 * refreshed at the provider first; a refused refresh answers 401 so the client logs out.
 */
export async function serviceToken(ctx: ServerContext, fan: Fan): Promise<ServiceTokenResponse> {
  if (!fan.service || !fan.service_access_token) throw notFound('This fan has no streaming account');
  if (fan.service === 'apple') return { token: fan.service_access_token, expires_at: null };
  const now = ctx.now();
  const expiresAt = fan.service_expires_at ?? 0;
  if (expiresAt - now > SERVICE_TOKEN_REFRESH_WINDOW_MS) return { token: fan.service_access_token, expires_at: expiresAt };
  if (!fan.service_refresh_token) throw unauthorized('Streaming login expired');
  try {
    const tokens = await ctx.providers.spotify.refresh(fan.service_refresh_token);
    await updateServiceTokens(ctx.db, fan.id, tokens, now);
    return { token: tokens.accessToken, expires_at: tokens.expiresAt };
  } catch (e) {
    if (e instanceof ProviderError && e.status >= 400 && e.status < 500) throw unauthorized('Streaming login expired');
    throw e;
  }
}
