/**
 * Local storage keys per campaign (spec §9: account token, locale, token gate access, tracking
 * params) and the session flag of the newsletter banner (spec §2). Values are JSON; a broken or
 * foreign value reads as absent instead of throwing.
 */
import type { StorageLike } from './env.ts';

export const STORAGE_PREFIX = 'fanfare';

/** The local storage keys of one campaign. */
export function storageKeys(campaignId: string) {
  return {
    accountToken: `${STORAGE_PREFIX}:${campaignId}:account-token`,
    locale: `${STORAGE_PREFIX}:${campaignId}:locale`,
    tokenGateAccess: `${STORAGE_PREFIX}:${campaignId}:token-gate-access`,
    trackingParams: `${STORAGE_PREFIX}:${campaignId}:tracking-params`,
  } as const;
}
export type StorageKeys = ReturnType<typeof storageKeys>;

/** Session storage flag: the newsletter banner was shown in this browser session. */
export const NEWSLETTER_BANNER_SHOWN_KEY = `${STORAGE_PREFIX}:newsletter-banner-shown`;

/** Reads a JSON value; missing, unparsable or rejected by `check` gives null. */
export function readJson<T>(storage: StorageLike, key: string, check: (v: unknown) => v is T): T | null {
  let raw: string | null;
  try {
    raw = storage.getItem(key);
  } catch {
    return null; // storage blocked (private mode, sandboxed frame)
  }
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return check(value) ? value : null;
  } catch {
    return null;
  }
}

export function writeJson(storage: StorageLike, key: string, value: unknown): void {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch {
    // Quota or blocked storage: the page still works for this visit.
  }
}

export function removeKey(storage: StorageLike, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // blocked storage holds nothing to remove
  }
}
