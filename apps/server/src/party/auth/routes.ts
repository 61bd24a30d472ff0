import { GRANT_LINK_REFUSED_ERROR, PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { HttpError, badRequest, unauthorized } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { ProviderError } from '../../providers/http.ts';
import { upsertProviderFan } from '../users/fans.ts';
import { partyRoute } from '../route.ts';
import { bearerToken } from './guards.ts';
import { completeLogin, decodeState, encodeState, isAllowedRedirect, resultUrl } from './loginService.ts';
import { revokeAccessToken } from './sessions.ts';

export async function registerAuthRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = partyRoute(ctx);
  const callbackUri = () => `${ctx.config.publicUrl}/api/auth/spotify/callback`;

  route(app, PARTY_ROUTES.spotifyLogin, async (req, reply) => {
    const q = req.query;
    if (!isAllowedRedirect(ctx, q.redirect_uri)) throw badRequest('redirect_uri is not an allowed origin');
    const state = encodeState(ctx, {
      redirect_uri: q.redirect_uri,
      party_id: q.party_id ?? null,
      grant: q.grant ?? null,
      artist_ids: (q.artist_ids ?? '').split(',').filter(Boolean),
      hash_output: q.hash_output === 'true',
    });
    return reply.redirect(ctx.providers.spotify.authorizeUrl({ redirectUri: callbackUri(), state }));
  });

  route(app, PARTY_ROUTES.spotifyCallback, async (req, reply) => {
    const state = req.query.state ? decodeState(ctx, req.query.state) : null;
    // Without a valid state we do not know (or trust) where to send the fan: answer here.
    if (!state) throw badRequest('Invalid or expired login state');
    const back = (params: Record<string, string>) => reply.redirect(resultUrl(state.redirect_uri, params, state.hash_output));
    if (req.query.error || !req.query.code) return back({ error: req.query.error ?? 'missing_code', auth_service: 'spotify' });
    try {
      const tokens = await ctx.providers.spotify.exchangeCode(req.query.code, callbackUri());
      const profile = await ctx.providers.spotify.me(tokens.accessToken);
      const fan = await upsertProviderFan(ctx.db, 'spotify', profile, tokens, ctx.now());
      if (state.artist_ids.length) {
        await ctx.providers.spotify.followArtists(tokens.accessToken, state.artist_ids).catch((err: unknown) => {
          req.log.warn({ err }, 'following artists failed');
        });
      }
      const accessToken = await completeLogin(ctx, fan, state.grant, state.party_id);
      return back({
        access_token: accessToken,
        service_token: tokens.accessToken,
        service_expires_at: String(tokens.expiresAt),
        auth_service: 'spotify',
      });
    } catch (err) {
      // A refused grant link: back to the app with the reason, and no token.
      if (err instanceof HttpError && err.statusCode === 403) {
        return back({ error: GRANT_LINK_REFUSED_ERROR, error_description: err.message, auth_service: 'spotify' });
      }
      req.log.warn({ err }, 'spotify login failed');
      return back({ error: err instanceof ProviderError ? 'provider_error' : 'login_failed', auth_service: 'spotify' });
    }
  });

  route(app, PARTY_ROUTES.appleLogin, async (req) => {
    const body = req.body;
    let identity: { id: string; storefront: string; hasSubscription?: boolean };
    try {
      identity = await ctx.providers.apple.identify(body.music_user_token);
    } catch (e) {
      if (e instanceof ProviderError && (e.status === 401 || e.status === 403)) throw unauthorized('Music user token refused by Apple Music');
      throw e;
    }
    const fan = await upsertProviderFan(
      ctx.db,
      'apple',
      { id: identity.id, displayName: 'Apple Music listener', email: null, country: identity.storefront, premium: identity.hasSubscription ?? true, image: null },
      { accessToken: body.music_user_token, refreshToken: null, expiresAt: null },
      ctx.now(),
    );
    return { access_token: await completeLogin(ctx, fan, body.grant_token ?? null, body.party_id ?? null) };
  });

  route(app, PARTY_ROUTES.logout, async (req) => {
    // The guard has checked the token; this revokes exactly that token.
    await revokeAccessToken(ctx.db, bearerToken(req) ?? '', ctx.now());
  });
}
