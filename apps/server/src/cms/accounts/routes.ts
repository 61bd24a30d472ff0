import {
  AccountTokenInfo,
  CampaignAccount,
  CampaignAppleLoginBody,
  CampaignLoginParams,
  CampaignLoginQuery,
  CmsIdParam,
} from '@fanfare/protocol';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ServerContext } from '../../context.ts';
import { badRequest, unauthorized } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { signPayload, verifyPayload } from '../../platform/tokens.ts';
import { ProviderError } from '../../providers/http.ts';
import { resultUrl } from '../../party/auth/loginService.ts';
import { isCampaignRedirectAllowed } from '../campaigns/redirects.ts';
import { getCampaign } from '../campaigns/service.ts';
import { accountForAccessToken, endAccountSession, openAccountSession, refreshAccountSession, upsertAccount } from './service.ts';

const tags = ['campaign accounts'];
const STATE_TTL_MS = 10 * 60_000;
const CallbackQuery = z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() });

/** What survives the trip through the provider's consent page, signed so it cannot be altered. */
interface CampaignLoginState {
  campaign_id: string;
  redirect_uri: string;
  hash_output: boolean;
  /** The page's own `state`, passed back unchanged (spec: must equal cms_account_auth). */
  state: string | null;
  exp: number;
}

/** The token of `Authorization: Bearer <token>` (or a bare token in the header). */
function authToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization?.trim();
  if (!header) return null;
  return /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? (/^\S+$/.test(header) ? header : null);
}

export async function registerAccountRoutes(app: App, ctx: ServerContext): Promise<void> {
  const callbackUri = () => `${ctx.config.cmsPublicUrl}/api/accounts/auth/spotify/callback`;

  app.get(
    '/api/campaigns/:id/auth/:service/login',
    { schema: { tags, summary: 'Browser redirect to the provider login (spotify)', params: CampaignLoginParams, querystring: CampaignLoginQuery } },
    async (req, reply) => {
      const campaign = await getCampaign(ctx, req.params.id);
      const { service } = req.params;
      if (service !== 'spotify') throw badRequest('Apple logs in with a music user token: POST /api/campaigns/{id}/auth/apple/login');
      if (!campaign.enabled_services.includes(service)) throw badRequest(`${service} is not enabled for this campaign`);
      // Guards against an open redirect that would hand fresh tokens to a foreign site.
      if (!isCampaignRedirectAllowed(ctx, campaign, req.query.redirect_uri)) throw badRequest('redirect_uri is not an allowed address');
      const state: CampaignLoginState = {
        campaign_id: campaign.id,
        redirect_uri: req.query.redirect_uri,
        hash_output: req.query.hash_output === 'true',
        state: req.query.state ?? null,
        exp: ctx.now() + STATE_TTL_MS,
      };
      return reply.redirect(ctx.providers.spotify.authorizeUrl({ redirectUri: callbackUri(), state: signPayload(state, ctx.config.sessionSecret) }));
    },
  );

  app.get('/api/accounts/auth/spotify/callback', { schema: { hide: true, querystring: CallbackQuery } }, async (req, reply) => {
    const state = req.query.state ? verifyPayload<CampaignLoginState>(req.query.state, ctx.config.sessionSecret) : null;
    // Without a valid state we do not know (or trust) where to send the fan: answer here.
    if (!state || state.exp <= ctx.now()) throw badRequest('Invalid or expired login state');
    const back = (params: Record<string, string>) =>
      reply.redirect(resultUrl(state.redirect_uri, { ...(state.state !== null ? { state: state.state } : {}), ...params }, state.hash_output));
    if (req.query.error || !req.query.code) return back({ error: req.query.error ?? 'missing_code', auth_service: 'spotify' });
    try {
      const tokens = await ctx.providers.spotify.exchangeCode(req.query.code, callbackUri());
      const profile = await ctx.providers.spotify.me(tokens.accessToken);
      const account = await upsertAccount(ctx, 'spotify', profile, tokens);
      const info = await openAccountSession(ctx, account, state.campaign_id);
      return back({
        access_token: info.access_token,
        refresh_token: info.refresh_token,
        service_token: info.service_token,
        service_expires_at: String(info.service_expires_at),
        account_id: info.account_id,
        auth_service: 'spotify',
      });
    } catch (err) {
      req.log.warn({ err }, 'campaign spotify login failed');
      return back({ error: err instanceof ProviderError ? 'provider_error' : 'login_failed', auth_service: 'spotify' });
    }
  });

  app.post(
    '/api/campaigns/:id/auth/apple/login',
    { schema: { tags, params: CmsIdParam, body: CampaignAppleLoginBody, response: { 200: AccountTokenInfo } } },
    async (req) => {
      const campaign = await getCampaign(ctx, req.params.id);
      if (!campaign.enabled_services.includes('apple')) throw badRequest('apple is not enabled for this campaign');
      let identity: { id: string };
      try {
        identity = await ctx.providers.apple.identify(req.body.music_user_token);
      } catch (e) {
        if (e instanceof ProviderError && (e.status === 401 || e.status === 403)) throw unauthorized('Music user token refused by Apple Music');
        throw e;
      }
      const account = await upsertAccount(ctx, 'apple', { id: identity.id, email: null }, { accessToken: req.body.music_user_token, refreshToken: null, expiresAt: null });
      return openAccountSession(ctx, account, campaign.id);
    },
  );

  app.post(
    '/api/accounts/session/refresh',
    {
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: { tags, summary: 'Rotates the refresh token (sent in the authorization header)', response: { 200: AccountTokenInfo } },
    },
    async (req) => {
      const token = authToken(req);
      if (!token) throw unauthorized('Missing refresh token');
      return refreshAccountSession(ctx, token);
    },
  );

  app.delete('/api/accounts/session', { schema: { tags, summary: 'Logout (refresh or access token in the authorization header)' } }, async (req, reply) => {
    const token = authToken(req);
    if (!token) throw unauthorized('Missing token');
    await endAccountSession(ctx, token);
    return reply.status(204).send();
  });

  app.get('/api/accounts/me', { schema: { tags, response: { 200: CampaignAccount } } }, async (req) => {
    const token = authToken(req);
    if (!token) throw unauthorized('Missing bearer token');
    return accountForAccessToken(ctx, token);
  });
}
