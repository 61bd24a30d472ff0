/**
 * Token gate (spec §2, §4): access is open when the gate is disabled or names no product;
 * otherwise a key from `token_gate_access_key` in the address is verified (stored if valid,
 * removed if not), else the stored key is. Each result is announced, then the page redirects
 * to the gated campaign (access on the gate page) or to the gate (blocked elsewhere).
 */
import { TOKEN_GATE_ACCESS_KEY_PARAM, type Campaign, type TokenGateResult } from '@fanfare/protocol';
import type { CampaignApi } from './api.ts';
import { Emitter } from './emitter.ts';
import type { PageEnv } from './env.ts';
import { DOCUMENT_EVENTS } from './events.ts';
import { readJson, removeKey, writeJson, type StorageKeys } from './storage.ts';

type GateCampaign = Pick<Campaign, 'id' | 'token_gate' | 'is_token_gate' | 'token_gated_campaign_url' | 'token_gate_url'>;

const isKey = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 500;

export class TokenGate {
  readonly events = new Emitter<{ change: TokenGateResult }>();
  private current: TokenGateResult | null = null;

  constructor(
    private readonly env: PageEnv,
    private readonly api: CampaignApi,
    private readonly campaign: GateCampaign,
    private readonly keys: StorageKeys,
    /** False inside the editor: its preview frame must stay on the page being edited. */
    private readonly mayRedirect: () => boolean = () => true,
  ) {}

  get result(): TokenGateResult | null {
    return this.current;
  }

  /** Works out access, announces it and redirects when the rules say so. */
  async check(): Promise<TokenGateResult> {
    return this.announce(await this.resolveAccess());
  }

  /**
   * Checks an access code with the gate's provider (spec §7 `provider_check`). A granted key is
   * stored and announced like any other result (state-change event, then the redirect to the
   * gated campaign with the key). A refusal rejects with the server's error, whose message
   * carries its `detail` (spec §8), and leaves the current access as it was.
   */
  async submitCode(code: string): Promise<TokenGateResult> {
    const granted = await this.api.checkTokenGate(this.campaign.id, code);
    if (!granted.has_access) return granted;
    if (granted.access_key) writeJson(this.env.localStorage, this.keys.tokenGateAccess, granted.access_key);
    return this.announce(granted);
  }

  private announce(result: TokenGateResult): TokenGateResult {
    this.current = result;
    this.events.emit('change', result);
    this.env.dispatch(DOCUMENT_EVENTS.tokenGateState, result);
    if (this.mayRedirect()) this.redirect(result);
    return result;
  }

  private async resolveAccess(): Promise<TokenGateResult> {
    const gate = this.campaign.token_gate;
    if (!gate.enabled || !gate.product_id) return { has_access: true, access_key: null };
    const url = new URL(this.env.location.href);
    const fromUrl = url.searchParams.get(TOKEN_GATE_ACCESS_KEY_PARAM);
    if (fromUrl) {
      // The key is verified and stored; it should not linger in a shareable address.
      url.searchParams.delete(TOKEN_GATE_ACCESS_KEY_PARAM);
      this.env.replaceUrl(url.toString());
      const ok = await this.verify(fromUrl);
      if (ok) writeJson(this.env.localStorage, this.keys.tokenGateAccess, fromUrl);
      else removeKey(this.env.localStorage, this.keys.tokenGateAccess);
      return { has_access: ok, access_key: ok ? fromUrl : null };
    }
    const stored = readJson(this.env.localStorage, this.keys.tokenGateAccess, isKey);
    if (!stored) return { has_access: false, access_key: null };
    const ok = await this.verify(stored);
    if (!ok) removeKey(this.env.localStorage, this.keys.tokenGateAccess);
    return { has_access: ok, access_key: ok ? stored : null };
  }

  private async verify(key: string): Promise<boolean> {
    try {
      return (await this.api.verifyTokenGate(this.campaign.id, key)).has_access;
    } catch (err) {
      this.env.logger.warn('Token gate verification failed', err);
      return false;
    }
  }

  private redirect(result: TokenGateResult): void {
    const c = this.campaign;
    if (result.has_access && c.is_token_gate && c.token_gated_campaign_url) {
      const target = new URL(c.token_gated_campaign_url, this.env.location.href);
      // The gated campaign stores keys under its own id, so the key travels with the redirect.
      if (result.access_key) target.searchParams.set(TOKEN_GATE_ACCESS_KEY_PARAM, result.access_key);
      this.env.location.assign(target.toString());
    } else if (!result.has_access && !c.is_token_gate && c.token_gate_url) {
      this.env.location.assign(new URL(c.token_gate_url, this.env.location.href).toString());
    }
  }

  destroy(): void {
    this.events.clear();
  }
}
