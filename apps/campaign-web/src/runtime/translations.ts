import type { TranslationsResponse } from '@fanfare/protocol';
import { PAGE_MESSAGES } from '../messages.ts';

/** The page's own labels under the campaign's translations: the campaign's win key by key. */
export function withPageMessages(t: TranslationsResponse): TranslationsResponse {
  const items = t.items.map((item) => {
    const own = PAGE_MESSAGES[item.locale as 'de' | 'en'] ?? PAGE_MESSAGES[(item.locale.split(/[-_]/)[0] ?? '') as 'de' | 'en'] ?? PAGE_MESSAGES.en;
    return { locale: item.locale, messages: { ...own, ...item.messages } };
  });
  return { ...t, items };
}

const TRANSLATIONS_PATH = /\/api\/(?:campaigns|apps)\/[^/?]+\/translations(?:\?|$)/;

/**
 * A `fetch` that lays the page's labels under every translations answer, so the runtime's `t`
 * finds them (the SDK's I18n takes no default messages yet). Other requests pass unchanged.
 */
export function fetchWithPageMessages(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const res = await base(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!res.ok || !TRANSLATIONS_PATH.test(url)) return res;
    const body = (await res.clone().json()) as Partial<TranslationsResponse>;
    // Only a translations answer of the expected shape is extended; anything else passes as it came.
    if (!Array.isArray(body.items) || !body.items.every((i) => typeof i?.locale === 'string' && typeof i.messages === 'object')) return res;
    return new Response(JSON.stringify(withPageMessages(body as TranslationsResponse)), { status: res.status, headers: { 'content-type': 'application/json' } });
  };
}
