import type { InAppBrowser } from '@fanfare/protocol';

/** An in-app browser the page recognised, and the phone system it runs on. */
export interface InAppVisit {
  app: InAppBrowser;
  os: 'android' | 'ios' | 'other';
}

/**
 * Markers of the in-app browsers in their user agents, the more specific first (Instagram's
 * carries Facebook's markers on some builds). Facebook: FBAN/FBAV (iOS), FB_IAB/FB4A (Android);
 * TikTok: BytedanceWebview, musical_ly, trill or TikTok; X: Twitter for iPhone, TwitterAndroid.
 */
const MARKERS: readonly [InAppBrowser, RegExp][] = [
  ['instagram', /\bInstagram\b/i],
  ['tiktok', /\b(?:BytedanceWebview|musical_ly|trill|TikTok)\b/i],
  ['snapchat', /\bSnapchat\b/i],
  ['facebook', /\b(?:FBAN|FBAV|FB_IAB|FB4A|FBIOS)\b/],
  ['x', /\bTwitter(?:Android| for iP(?:hone|ad))?\b/i],
];

/** The in-app browser of a user agent, or null for an ordinary browser. */
export function detectInAppBrowser(userAgent: string): InAppVisit | null {
  const hit = MARKERS.find(([, re]) => re.test(userAgent));
  if (!hit) return null;
  const os = /Android/i.test(userAgent) ? 'android' : /iPhone|iPad|iPod/i.test(userAgent) ? 'ios' : 'other';
  return { app: hit[0], os };
}

/**
 * An Android intent that opens `url` in the system's default browser, leaving the app's browser.
 * With no browser to take it, Android opens the fallback: the same URL.
 */
export function androidIntentUrl(url: string): string {
  const u = new URL(url);
  return `intent://${u.host}${u.pathname}${u.search}#Intent;scheme=${u.protocol.replace(':', '')};S.browser_fallback_url=${encodeURIComponent(url)};end`;
}

/** The apps' names as visitors know them. */
export const IN_APP_NAMES: Record<InAppBrowser, string> = { instagram: 'Instagram', facebook: 'Facebook', tiktok: 'TikTok', snapchat: 'Snapchat', x: 'X' };
