import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { badRequest, unauthorized } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { signPayload, verifyPayload } from '../../platform/tokens.ts';
import { ProviderError } from '../../providers/http.ts';
import { resultUrl } from '../../party/auth/loginService.ts';
import { isCampaignRedirectAllowed } from '../campaigns/redirects.ts';
import { campaignViewOf } from '../editorial/preview.ts';
import { requirePublishedCampaign } from '../editorial/publish.ts';
import { cmsRoute } from '../route.ts';
import { accountForAccessToken, endAccountSession, openAccountSession, refreshAccountSession, upsertAccount } from './service.ts';

const STATE_TTL_MS = 10 * 60_000;

/** What survives the trip through the provider's consent page, signed so it cannot be altered. */
interface CampaignLoginState {
  campaign_id: string;
  redirect_uri: string;
  hash_output: boolean;
  /** The page's own `state`, passed back unchanged (spec: must equal cms_account_auth). */
  state: string | null;
  exp: number;
}

export async function registerAccountRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);
  const callbackUri = () => `${ctx.config.cmsPublicUrl}/api/accounts/auth/spotify/callback`;

  route(app, CMS_ROUTES.accountLogin, async (req, reply) => {
    const campaign = await requirePublishedCampaign(ctx, req.params.id, await campaignViewOf(ctx, req, req.params.id, req.query.preview));
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
  });

  route(app, CMS_ROUTES.accountSpotifyCallback, async (req, reply) => {
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

  route(app, CMS_ROUTES.accountAppleLogin, async (req) => {
    const campaign = await requirePublishedCampaign(ctx, req.params.id, await campaignViewOf(ctx, req, req.params.id, req.query.preview));
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
  });

  route(app, CMS_ROUTES.refreshAccountSession, async (_req, _reply, { token }) => refreshAccountSession(ctx, token), {
    config: { rateLimit: { max: 60, timeWindow: 60_000 } },
  });

  route(app, CMS_ROUTES.accountLogout, async (_req, _reply, { token }) => {
    await endAccountSession(ctx, token);
  });

  route(app, CMS_ROUTES.getAccountMe, async (_req, _reply, { token }) => accountForAccessToken(ctx, token));
}
