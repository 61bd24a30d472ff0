import { AccessTokenResponse, AppleLoginBody, SpotifyLoginQuery } from '@fanfare/protocol';
import { z } from 'zod';
import type { ServerContext } from '../../context.ts';
import { badRequest, unauthorized } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { ProviderError } from '../../providers/http.ts';
import { upsertProviderFan } from '../users/fans.ts';
import { bearerToken } from './guards.ts';
import { completeLogin, decodeState, encodeState, isAllowedRedirect, resultUrl } from './loginService.ts';
import { revokeAccessToken } from './sessions.ts';

const CallbackQuery = z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() });

export async function registerAuthRoutes(app: App, ctx: ServerContext): Promise<void> {
  const callbackUri = () => `${ctx.config.publicUrl}/api/auth/spotify/callback`;

  app.get(
    '/api/auth/spotify/login',
    { schema: { tags: ['auth'], summary: 'Browser redirect to the Spotify login', querystring: SpotifyLoginQuery } },
    async (req, reply) => {
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
    },
  );

  app.get('/api/auth/spotify/callback', { schema: { hide: true, querystring: CallbackQuery } }, async (req, reply) => {
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
      req.log.warn({ err }, 'spotify login failed');
      return back({ error: err instanceof ProviderError ? 'provider_error' : 'login_failed', auth_service: 'spotify' });
    }
  });

  app.post(
    '/api/auth/apple/login',
    { schema: { tags: ['auth'], body: AppleLoginBody, response: { 200: AccessTokenResponse } } },
    async (req) => {
      const body = req.body;
      let identity: { id: string; storefront: string };
      try {
        identity = await ctx.providers.apple.identify(body.music_user_token);
      } catch (e) {
        if (e instanceof ProviderError && (e.status === 401 || e.status === 403)) throw unauthorized('Music user token refused by Apple Music');
        throw e;
      }
      const fan = await upsertProviderFan(
        ctx.db,
        'apple',
        { id: identity.id, displayName: 'Apple Music listener', email: null, country: identity.storefront, premium: true, image: null },
        { accessToken: body.music_user_token, refreshToken: null, expiresAt: null },
        ctx.now(),
      );
      return { access_token: await completeLogin(ctx, fan, body.grant_token ?? null, body.party_id ?? null) };
    },
  );

  app.delete('/api/auth/session', { schema: { tags: ['auth'], summary: 'Logout: revokes the bearer token' } }, async (req, reply) => {
    const token = bearerToken(req);
    if (!token) throw unauthorized('Missing bearer token');
    await revokeAccessToken(ctx.db, token, ctx.now());
    return reply.status(204).send();
  });
}
