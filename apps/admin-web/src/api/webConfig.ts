import { parseWebConfig, WEB_CONFIG_META } from '@fanfare/protocol';

/**
 * The deployment's public URLs as the CMS wrote them into this page (`<meta name="fanfare-config">`):
 * where the party API is, never a guess from this page's host or a fixed port.
 */
export function readWebConfig(doc: Pick<Document, 'querySelector'>): ReturnType<typeof parseWebConfig> {
  return parseWebConfig(doc.querySelector<HTMLMetaElement>(`meta[name="${WEB_CONFIG_META}"]`)?.content);
}
