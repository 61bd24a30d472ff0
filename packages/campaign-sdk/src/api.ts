/**
 * Every backend call of the page (spec §7), through the typed CMS client `@fanfare/client/cms`.
 * The client (and with it zod and the route table) is imported on the first call, so the core
 * bundle stays inside its size budget. Error messages (`detail`), the session header and the
 * timeout (none) are the client's rules.
 */
import { ApiError } from '@fanfare/client';
import { TOKEN_GATE_ACCESS_KEY_HEADER, TRACK_LOOKUP_BATCH } from '@fanfare/protocol';
import type { CmsClient } from '@fanfare/client/cms';
import type {
  AccountTokenInfo,
  AppleDataResponse,
  CampaignAccount,
  CampaignService,
  NewsletterSignupBody,
  PreviewQuery,
  SpotifyAlbum,
  SpotifyPlaylist,
  SpotifyTrack,
  TokenGateResult,
  TranslationsResponse,
  UserGeo,
} from '@fanfare/protocol';

export { ApiError };

/** Spec §7: the Apple storefront when neither the caller nor the URL names one. */
export const APPLE_DEFAULT_STOREFRONT = 'us';

/**
 * Spec §7 Apple lookups: an id or an Apple Music URL (`https://music.apple.com/de/album/name/123`)
 * becomes a storefront and an id. The storefront is taken from the URL if present, else the
 * caller's, else `us`.
 */
export function appleLookupTarget(ref: string, storefront?: string): { storefront: string; id: string } {
  let url: URL | null = null;
  try {
    url = /^https?:\/\//i.test(ref) ? new URL(ref) : null;
  } catch {
    url = null;
  }
  if (!url) return { storefront: (storefront ?? APPLE_DEFAULT_STOREFRONT).toLowerCase(), id: ref };
  const parts = url.pathname.split('/').filter(Boolean);
  const fromUrl = parts[0] && /^[a-z]{2}$/i.test(parts[0]) ? parts[0] : null;
  return { storefront: (fromUrl ?? storefront ?? APPLE_DEFAULT_STOREFRONT).toLowerCase(), id: parts.at(-1) ?? ref };
}

export interface CampaignApiOptions {
  /** Origin of the CMS (config `backendOrigin`). */
  baseUrl: string;
  fetch: typeof fetch;
  /** The editor's CMS token (bridge `token`), sent as bearer on the calls that carry a token. */
  editorToken?: () => string | null;
  /**
   * The preview link's token the page was opened with: passed on (`preview` query) to the page's
   * own public calls, so that the editor's preview of an unpublished draft gets answers.
   */
  previewToken?: () => string | null;
  /** Replaces the lazy import of the typed client (tests). */
  loadClient?: () => Promise<CmsClient>;
}

export class CampaignApi {
  private client: Promise<CmsClient> | null = null;

  constructor(private readonly options: CampaignApiOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** The typed client, loaded on first use. */
  cms(): Promise<CmsClient> {
    this.client ??=
      this.options.loadClient?.() ??
      import('@fanfare/client/cms').then(({ createCmsClient }) =>
        // Creating calls (the newsletter signup) carry an Idempotency-Key and retry 503s and lost answers.
        createCmsClient({ baseUrl: this.options.baseUrl, fetch: (url, init) => this.options.fetch(url, init), token: () => this.options.editorToken?.() ?? null, retries: 3 }),
      );
    return this.client;
  }

  /** The `preview` query of the page's public calls: only while previewing a draft. */
  private previewQuery(): { query?: PreviewQuery } {
    const preview = this.options.previewToken?.() ?? null;
    return preview ? { query: { preview } } : {};
  }

  /** Spec §7 Newsletter: no token. */
  async newsletterSignup(campaignId: string, body: NewsletterSignupBody): Promise<void> {
    await (await this.cms()).call('newsletterSignup', { params: { id: campaignId }, body, ...this.previewQuery() }, { includeToken: false });
  }

  /** Spec §7 Accounts: the browser redirect of a provider login. */
  async loginUrl(campaignId: string, service: CampaignService, query: { redirect_uri: string; state: string; hash_output?: boolean }): Promise<string> {
    return (await this.cms()).url('accountLogin', {
      params: { id: campaignId, service },
      query: { redirect_uri: query.redirect_uri, state: query.state, hash_output: query.hash_output ? 'true' : 'false', ...this.previewQuery().query },
    });
  }

  async appleLogin(campaignId: string, musicUserToken: string): Promise<AccountTokenInfo> {
    return (await this.cms()).call('accountAppleLogin', { params: { id: campaignId }, body: { music_user_token: musicUserToken }, ...this.previewQuery() }, { includeToken: false });
  }

  /** Spec §7: the authorization header carries the refresh token. */
  async refreshSession(refreshToken: string): Promise<AccountTokenInfo> {
    return (await this.cms()).with({ token: () => refreshToken }).call('refreshAccountSession');
  }

  async logout(refreshToken: string): Promise<void> {
    await (await this.cms()).with({ token: () => refreshToken }).call('accountLogout');
  }

  async me(accessToken: string): Promise<CampaignAccount> {
    return (await this.cms()).with({ token: () => accessToken }).call('getAccountMe');
  }

  /** Spec §7 Token gate: `verify_access` with the key in the `token-gate-access-key` header. */
  async verifyTokenGate(campaignId: string, accessKey: string): Promise<TokenGateResult> {
    return (await this.cms()).call('tokenGateVerify', { params: { id: campaignId }, ...this.previewQuery() }, { includeToken: false, headers: { [TOKEN_GATE_ACCESS_KEY_HEADER]: accessKey } });
  }

  /** Spec §7 Token gate: `provider_check` with credentials (an access code for the built-in provider). */
  async checkTokenGate(campaignId: string, code: string): Promise<TokenGateResult> {
    return (await this.cms()).call('tokenGateCheck', { params: { id: campaignId }, body: { credentials: { code } }, ...this.previewQuery() }, { includeToken: false });
  }

  /** Spec §7 i18n: with the (editor's) token. */
  async campaignTranslations(campaignId: string): Promise<TranslationsResponse> {
    return (await this.cms()).call('getCampaignTranslations', { params: { id: campaignId }, ...this.previewQuery() });
  }

  async appTranslations(app: string): Promise<TranslationsResponse> {
    return (await this.cms()).call('getAppTranslations', { params: { app } });
  }

  async geo(): Promise<UserGeo> {
    return (await this.cms()).call('getGeo');
  }

  async spotifyAlbum(id: string): Promise<SpotifyAlbum> {
    return (await this.cms()).call('spotifyAlbum', { params: { id } }, { includeToken: false });
  }

  async spotifyPlaylist(id: string): Promise<SpotifyPlaylist> {
    return (await this.cms()).call('spotifyPlaylist', { params: { id } }, { includeToken: false });
  }

  async spotifyTrack(id: string): Promise<SpotifyTrack> {
    return (await this.cms()).call('spotifyTrack', { params: { id } }, { includeToken: false });
  }

  /** Spec §7: an Apple Music album by id or URL, in the URL's storefront, else `storefront`, else `us`. */
  async appleAlbum(ref: string, storefront?: string): Promise<AppleDataResponse> {
    return (await this.cms()).call('appleAlbum', { params: appleLookupTarget(ref, storefront) }, { includeToken: false });
  }

  /** Spec §7: an Apple Music playlist by id or URL, in the URL's storefront, else `storefront`, else `us`. */
  async applePlaylist(ref: string, storefront?: string): Promise<AppleDataResponse> {
    return (await this.cms()).call('applePlaylist', { params: appleLookupTarget(ref, storefront) }, { includeToken: false });
  }

  /** Spec §7 and §9: several tracks, looked up in batches of 50; order kept, unknown ids dropped. */
  async spotifyTracks(ids: readonly string[]): Promise<SpotifyTrack[]> {
    const cms = await this.cms();
    const out: SpotifyTrack[] = [];
    for (let i = 0; i < ids.length; i += TRACK_LOOKUP_BATCH) {
      const res = await cms.call('spotifyTracks', { query: { ids: ids.slice(i, i + TRACK_LOOKUP_BATCH).join(',') } }, { includeToken: false });
      for (const t of res.tracks) if (t) out.push(t);
    }
    return out;
  }
}
