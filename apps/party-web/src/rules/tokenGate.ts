/**
 * The party's token gate (spec 2: "Admins also skip the token-gate redirect"): a party whose
 * campaign has a token gate sends fans without access to the campaign's gate URL, as the campaign
 * pages do (campaign spec §4). Access is the key the campaign pages stored for that campaign,
 * verified by the CMS; the server still authorises every call.
 */

/** The gate of the party's campaign, as the campaign configuration in the page names it. */
export interface PartyTokenGate {
  campaignId: string;
  enabled: boolean;
  productId: string | null;
  /** Where a fan without access goes (the campaign's `token_gate_url`). */
  gateUrl: string | null;
}

/** The campaign pages' local-storage key of a campaign's gate key (campaign SDK `storageKeys`). */
export const tokenGateAccessStorageKey = (campaignId: string) => `fanfare:${campaignId}:token-gate-access`;

/** The gate from the campaign configuration JSON (`id`, `token_gate`, `token_gate_url`), or null. */
export function readPartyTokenGate(config: unknown): PartyTokenGate | null {
  if (typeof config !== 'object' || config === null) return null;
  const c = config as { id?: unknown; token_gate?: unknown; token_gate_url?: unknown };
  const gate = c.token_gate as { enabled?: unknown; product_id?: unknown } | null | undefined;
  if (typeof c.id !== 'string' || !c.id || typeof gate !== 'object' || gate === null) return null;
  return {
    campaignId: c.id,
    enabled: gate.enabled === true,
    productId: typeof gate.product_id === 'string' && gate.product_id ? gate.product_id : null,
    gateUrl: typeof c.token_gate_url === 'string' && c.token_gate_url ? c.token_gate_url : null,
  };
}

export interface GateAccess {
  /** The stored key of the campaign, if any. */
  storedKey: (campaignId: string) => string | null;
  /** Asks the CMS whether the key opens the campaign (`verify_access`). */
  verify: (campaignId: string, key: string) => Promise<boolean>;
}

/**
 * Where the token gate sends this visitor, or null to stay. Admins skip it; so does everyone when
 * the gate is off, names no product or no gate URL; a fan with a key the CMS accepts stays. A
 * failed verification counts as no access: the gate page lets the fan in again with a code.
 */
export async function tokenGateRedirect(gate: PartyTokenGate | null, isAdmin: boolean, access: GateAccess): Promise<string | null> {
  if (!gate || isAdmin) return null;
  if (!gate.enabled || !gate.productId || !gate.gateUrl) return null;
  const key = access.storedKey(gate.campaignId);
  if (key) {
    const ok = await access.verify(gate.campaignId, key).catch(() => false);
    if (ok) return null;
  }
  return gate.gateUrl;
}

/** Reads a stored key written by the campaign SDK (a JSON string); anything else is no key. */
export function parseStoredKey(raw: string | null): string | null {
  if (!raw) return null;
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'string' && v.length > 0 && v.length <= 500 ? v : null;
  } catch {
    return null;
  }
}
