import { PARTY_PREVIEW_PARAM } from '@fanfare/protocol';
import { isAdminPreview } from '../rules/redirect.ts';

/**
 * Preview mode (issue 14): the back office's party editor shows this app in a frame with
 * `?admin=true&preview=1`. The admin flag keeps the redirect rule away (spec 2); preview mode
 * also keeps the socket closed and shows a sample fan, so any screen renders without a login.
 * Only what is shown changes: every call is still authorised by the server.
 */
export function isPartyPreview(search: string): boolean {
  const value = new URLSearchParams(search).get(PARTY_PREVIEW_PARAM);
  return isAdminPreview(search) && (value === '1' || value === 'true');
}

/**
 * The origins whose preview frames this page accepts (the back office's): the server writes them
 * into `<meta name="fanfare-preview-origins">`, space-separated. Anything not an http(s) origin is
 * dropped, so a stray value never widens the list.
 */
export function previewOrigins(doc: Pick<Document, 'querySelector'>): string[] {
  const raw = doc.querySelector('meta[name="fanfare-preview-origins"]')?.getAttribute('content') ?? '';
  return raw
    .split(/\s+/)
    .filter((o) => /^https?:\/\/[^/\s]+$/.test(o))
    .filter((o, i, all) => all.indexOf(o) === i);
}
