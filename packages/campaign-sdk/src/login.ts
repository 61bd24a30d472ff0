/**
 * Provider login of campaign accounts (spec §2, §4, §5, §8): Spotify by redirect, Apple through
 * an injected MusicKit object; the callback parsed and cleared from the address; the token
 * refreshed on load and every 600000 ms; a 401 logs out silently.
 */
import { CAMPAIGN_LOGIN_STATE, CAMPAIGN_SERVICES, CAMPAIGN_TOKEN_REFRESH_INTERVAL_MS, type AccountTokenInfo, type CampaignService } from '@fanfare/protocol';
import { ApiError, type CampaignApi } from './api.ts';
import { Emitter } from './emitter.ts';
import type { PageEnv } from './env.ts';
import { SDK_ERRORS } from './errors.ts';
import { readJson, removeKey, writeJson, type StorageKeys } from './storage.ts';
import { TRACKING_EVENTS, type Tracker } from './tracking.ts';

/** The part of Apple's MusicKit instance login uses (injected, so tests pass a fake). */
export interface MusicKitAuth {
  readonly isAuthorized: boolean;
  readonly musicUserToken?: string | null;
  authorize(): Promise<string>;
  unauthorize(): Promise<unknown>;
}

/** Query (or fragment) parameters of the login callback (spec §2). */
export const LOGIN_CALLBACK_PARAMS = ['state', 'access_token', 'refresh_token', 'service_token', 'service_expires_at', 'account_id', 'auth_service', 'error'] as const;

export type CallbackResult = { kind: 'none' } | { kind: 'token'; token: AccountTokenInfo } | { kind: 'error'; service: string; message: string };

/** Reads the login callback from the address (query, or fragment with `hash_output`). */
export function parseLoginCallback(href: string): { result: CallbackResult; cleanUrl: string } {
  const url = new URL(href);
  const fromHash = new URLSearchParams(url.hash.replace(/^#/, ''));
  const params = fromHash.get('state') === CAMPAIGN_LOGIN_STATE ? fromHash : url.searchParams;
  if (params.get('state') !== CAMPAIGN_LOGIN_STATE) return { result: { kind: 'none' }, cleanUrl: href };
  const values = new URLSearchParams(params); // read before the parameters are cleared below
  const get = (k: string) => values.get(k);
  for (const p of LOGIN_CALLBACK_PARAMS) params.delete(p);
  if (params === fromHash) url.hash = fromHash.toString();
  const cleanUrl = url.toString().replace(/#$/, '');
  const service = get('auth_service') ?? 'spotify';
  if (get('error')) return { result: { kind: 'error', service, message: get('error')! }, cleanUrl };
  const token = {
    access_token: get('access_token'),
    refresh_token: get('refresh_token'),
    service_token: get('service_token'),
    service_expires_at: Number(get('service_expires_at')),
    service,
    account_id: get('account_id'),
  };
  if (!isToken(token)) return { result: { kind: 'error', service, message: 'Invalid login callback' }, cleanUrl };
  return { result: { kind: 'token', token }, cleanUrl };
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 4000;

/** The shape of `AccountTokenInfo` (spec §3), checked on what the address or storage hands us. */
export function isToken(v: unknown): v is AccountTokenInfo {
  if (typeof v !== 'object' || v === null) return false;
  const t = v as Record<string, unknown>;
  return (
    isText(t.access_token) &&
    isText(t.refresh_token) &&
    isText(t.service_token) &&
    isText(t.account_id) &&
    typeof t.service_expires_at === 'number' &&
    Number.isFinite(t.service_expires_at) &&
    (CAMPAIGN_SERVICES as readonly unknown[]).includes(t.service)
  );
}

export class Login {
  readonly events = new Emitter<{ change: AccountTokenInfo | null }>();
  private current: AccountTokenInfo | null;
  private interval: unknown = null;
  /** Settles once MusicKit loaded (or failed to) and Apple's load-time rules ran (see `init`). */
  appleChecked: Promise<void> = Promise.resolve();

  constructor(
    private readonly env: PageEnv,
    private readonly api: CampaignApi,
    private readonly tracker: Tracker,
    private readonly campaignId: string | null,
    private readonly keys: StorageKeys | null,
    private readonly musicKit: () => Promise<MusicKitAuth | null> = async () => null,
  ) {
    this.current = keys ? readJson(env.localStorage, keys.accountToken, isToken) : null;
  }

  get token(): AccountTokenInfo | null {
    return this.current;
  }

  get isLoggedIn(): boolean {
    return this.current !== null;
  }

  private set(token: AccountTokenInfo | null): void {
    this.current = token;
    if (this.keys) {
      if (token) writeJson(this.env.localStorage, this.keys.accountToken, token);
      else removeKey(this.env.localStorage, this.keys.accountToken);
    }
    this.events.emit('change', token);
  }

  private fail(method: string, err: unknown): void {
    this.tracker.track(TRACKING_EVENTS.loginFail, { method, message: err instanceof Error ? err.message : String(err) });
  }

  /**
   * On load: the callback, a refresh, then the refresh interval. Apple's stale and silent cases
   * wait for MusicKit, which may take up to the 120 s script timeout: they run on their own
   * (`appleChecked`), so the page's start never waits for Apple's CDN.
   */
  async init(): Promise<void> {
    const { result, cleanUrl } = parseLoginCallback(this.env.location.href);
    if (result.kind !== 'none') this.env.replaceUrl(cleanUrl);
    if (result.kind === 'token') this.set(result.token);
    if (result.kind === 'error') this.fail(result.service, result.message);

    // Spec §4: refreshed on load, a token the login callback just brought included. An Apple
    // token is refreshed after the Apple check, which may clear it first.
    const apple = this.current?.service === 'apple';
    this.appleChecked = this.checkApple(apple);
    if (this.current && !apple) await this.refresh();
    this.interval = this.env.timers.setInterval(() => void this.refresh(), CAMPAIGN_TOKEN_REFRESH_INTERVAL_MS);
  }

  /** Spec §4 Apple: a stored Apple token without authorisation is cleared; an authorised visitor is logged in silently. */
  private async checkApple(refreshAfter: boolean): Promise<void> {
    const mk = await this.musicKit().catch(() => null);
    if (mk && this.current?.service === 'apple' && !mk.isAuthorized) this.set(null);
    else if (mk && !this.current && mk.isAuthorized && mk.musicUserToken && this.campaignId) await this.silentAppleLogin(mk.musicUserToken);
    else if (refreshAfter && this.current) await this.refresh();
  }

  private async silentAppleLogin(musicUserToken: string): Promise<void> {
    try {
      this.set(await this.api.appleLogin(this.campaignId!, musicUserToken));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) await this.logoutSilently();
      else this.env.logger.warn('Silent Apple login failed', err);
    }
  }

  /** Rotates the tokens; a 401 logs out silently, other failures keep the token for the next try. */
  async refresh(): Promise<void> {
    const token = this.current;
    if (!token) return;
    try {
      const next = await this.api.refreshSession(token.refresh_token);
      // Cleared or replaced meanwhile (a logout, Apple's stale-token rule): the answer is stale.
      if (this.current === token) this.set(next);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) await this.logoutSilently();
      else this.env.logger.warn('Token refresh failed', err);
    }
  }

  private async logoutSilently(): Promise<void> {
    const mk = await this.musicKit().catch(() => null);
    if (this.current?.service === 'apple' && mk?.isAuthorized) await mk.unauthorize().catch(() => undefined);
    this.set(null);
  }

  /** Spotify: the browser leaves for the provider; the callback comes back with `state=cms_account_auth`. */
  async loginWithSpotify(returnTo: string = this.env.location.href): Promise<void> {
    if (!this.campaignId) throw new Error(SDK_ERRORS.loginRequiresCampaign);
    try {
      this.env.location.assign(await this.api.loginUrl(this.campaignId, 'spotify', { redirect_uri: returnTo, state: CAMPAIGN_LOGIN_STATE }));
    } catch (err) {
      this.fail('spotify', err);
      throw err;
    }
  }

  /** Apple: MusicKit authorises in a pop-up; its music user token opens a campaign session. */
  async loginWithApple(): Promise<AccountTokenInfo> {
    if (!this.campaignId) throw new Error(SDK_ERRORS.loginRequiresCampaign);
    try {
      const mk = await this.musicKit();
      if (!mk) throw new Error('MusicKit is not available');
      const musicUserToken = await mk.authorize();
      const token = await this.api.appleLogin(this.campaignId, musicUserToken);
      this.set(token);
      return token;
    } catch (err) {
      this.fail('apple', err);
      throw err;
    }
  }

  async login(service: CampaignService): Promise<void> {
    if (service === 'apple') await this.loginWithApple();
    else await this.loginWithSpotify();
  }

  /** Sends the refresh token, de-authorises the provider and clears the token (spec §4). */
  async logout(): Promise<void> {
    const token = this.current;
    if (token) await this.api.logout(token.refresh_token).catch((err: unknown) => this.env.logger.warn('Logout call failed', err));
    if (token?.service === 'apple') {
      const mk = await this.musicKit().catch(() => null);
      await mk?.unauthorize().catch(() => undefined);
    }
    this.set(null);
  }

  destroy(): void {
    if (this.interval !== null) this.env.timers.clearInterval(this.interval);
    this.interval = null;
    this.events.clear();
  }
}
