import fs from 'node:fs/promises';
import path from 'node:path';
import type { FrontendSettings, LegalPage } from '@fanfare/protocol';
import { escapeHtml } from '../../platform/html.ts';
import { sanitizeHtml } from '../../platform/sanitize.ts';

/** Titles of the legal pages, in the app's two locales. */
export const LEGAL_TITLES: Record<'de' | 'en', Record<LegalPage, string>> = {
  de: { imprint: 'Impressum', privacy: 'Datenschutz', terms: 'Teilnahmebedingungen' },
  en: { imprint: 'Imprint', privacy: 'Privacy', terms: 'Terms' },
};

/**
 * What a fresh install shows until the operator configures `LEGAL_DIR` or a party brings its own
 * texts: honest placeholders that say who has to fill them in, never a JSON 404.
 */
const DEFAULT_BODIES: Record<'de' | 'en', Record<LegalPage, string>> = {
  de: {
    imprint:
      '<p>Diese Listening Party wird vom Betreiber dieser Fanfare-Installation angeboten.</p><p>Betreiber: Bitte hinterlege dein Impressum in den Party-Einstellungen (<code>frontend.legal.imprint</code>) oder als <code>imprint.html</code> im Ordner <code>LEGAL_DIR</code>.</p>',
    privacy:
      '<p>Für die Party speichern wir deinen Namen im Chat, deinen Streaming-Account (Dienst und Nutzer-ID), freiwillig deine E-Mail-Adresse und dein Land, deine Chat-Nachrichten, Stimmen und Antworten. Wir nutzen sie nur, um die Party durchzuführen.</p><p>Betreiber: Bitte ergänze deine Datenschutzerklärung in den Party-Einstellungen (<code>frontend.legal.privacy</code>) oder als <code>privacy.html</code> im Ordner <code>LEGAL_DIR</code>.</p>',
    terms:
      '<p>Die Teilnahmebedingungen des Gewinnspiels legt der Veranstalter fest.</p><p>Betreiber: Bitte hinterlege sie in den Party-Einstellungen (<code>frontend.legal.terms</code>) oder als <code>terms.html</code> im Ordner <code>LEGAL_DIR</code>.</p>',
  },
  en: {
    imprint:
      '<p>This listening party is offered by the operator of this Fanfare installation.</p><p>Operator: please add your imprint in the party settings (<code>frontend.legal.imprint</code>) or as <code>imprint.html</code> in the <code>LEGAL_DIR</code> folder.</p>',
    privacy:
      '<p>For the party we store your chat name, your streaming account (service and user id), optionally your email address and country, your chat messages, votes and answers. We use them only to run the party.</p><p>Operator: please complete your privacy policy in the party settings (<code>frontend.legal.privacy</code>) or as <code>privacy.html</code> in the <code>LEGAL_DIR</code> folder.</p>',
    terms:
      '<p>The organiser sets the terms of the competition.</p><p>Operator: please add them in the party settings (<code>frontend.legal.terms</code>) or as <code>terms.html</code> in the <code>LEGAL_DIR</code> folder.</p>',
  },
};

/** The page's text: the party's own, else the operator's file in `LEGAL_DIR`, else the placeholder. Always sanitized. */
export async function legalBody(page: LegalPage, locale: 'de' | 'en', frontend: FrontendSettings | null, legalDir: string | null): Promise<string> {
  const own = frontend?.legal?.[page];
  if (own) return sanitizeHtml(own);
  if (legalDir) {
    const file = await fs.readFile(path.join(legalDir, `${page}.html`), 'utf8').catch(() => null);
    if (file !== null) return sanitizeHtml(file);
  }
  return DEFAULT_BODIES[locale][page];
}

/** The locale of a legal page: `?lang=`, else the browser's first language we have, else de (spec 9). */
export function legalLocale(lang: string | undefined, acceptLanguage: string | undefined): 'de' | 'en' {
  if (lang === 'de' || lang === 'en') return lang;
  const first = acceptLanguage?.split(',')[0]?.trim().slice(0, 2).toLowerCase();
  return first === 'en' ? 'en' : 'de';
}

/** A small standalone page (the party app's colours), readable at 390 px, with a way back to the party. */
export function renderLegalPage(opts: { title: string; body: string; partyName: string | null; backHref: string; backLabel: string; locale: 'de' | 'en' }): string {
  const heading = escapeHtml(opts.title);
  return `<!doctype html>
<html lang="${opts.locale}">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${heading}${opts.partyName ? ` · ${escapeHtml(opts.partyName)}` : ''}</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Ccircle cx='16' cy='16' r='14' fill='%23ff5a36'/%3E%3C/svg%3E" />
<style>
body { margin: 0; background: #14142b; color: #fff; font: 16px/1.6 system-ui, sans-serif; }
main { max-width: 44rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
a { color: #ffb199; }
h1 { font-size: 1.8rem; margin: 1rem 0; }
code { background: rgba(255,255,255,.1); padding: 0 .25rem; border-radius: 4px; word-break: break-word; }
</style>
</head>
<body>
<main>
<p><a href="${escapeHtml(opts.backHref)}">← ${escapeHtml(opts.backLabel)}</a></p>
<h1>${heading}</h1>
${opts.partyName ? `<p>${escapeHtml(opts.partyName)}</p>` : ''}
<article>${opts.body}</article>
</main>
</body>
</html>`;
}
