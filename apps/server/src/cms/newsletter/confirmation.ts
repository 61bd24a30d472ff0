/**
 * What a fan sees of the double opt-in: the confirmation e-mail (text and HTML, in the fan's
 * locale, from the label) and the page its link opens. The page confirms only through its
 * button's POST: e-mail security scanners fetch every link with a GET, and a GET changes nothing.
 */
import type { Campaign } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { parseJson } from '../../platform/db/columns.ts';
import { escapeHtml } from '../../platform/html.ts';
import type { MailMessage } from '../../platform/mail.ts';

interface Words {
  subject: string;
  hello: string;
  signedUp: (label: string, campaign: string) => string;
  button: string;
  ignore: string;
  pageTitle: string;
  pageText: (label: string) => string;
  expired: string;
  unknownTitle: string;
  unknownText: string;
}

const WORDS: Record<'de' | 'en', Words> = {
  de: {
    subject: 'Bitte bestätige deine Newsletter-Anmeldung',
    hello: 'Hallo,',
    signedUp: (label, campaign) => `du hast dich über „${campaign}“ für den Newsletter von ${label} angemeldet. Bitte bestätige deine Anmeldung:`,
    button: 'Anmeldung bestätigen',
    ignore: 'Wenn du das nicht warst, ignoriere diese E-Mail einfach: ohne Bestätigung bekommst du nichts von uns.',
    pageTitle: 'Newsletter-Anmeldung bestätigen',
    pageText: (label) => `Ein Klick noch, dann bekommst du den Newsletter von ${label}.`,
    expired: 'Dieser Link ist abgelaufen. Bitte melde dich noch einmal an.',
    unknownTitle: 'Link unbekannt',
    unknownText: 'Diesen Bestätigungslink kennen wir nicht. Bitte melde dich noch einmal an.',
  },
  en: {
    subject: 'Please confirm your newsletter subscription',
    hello: 'Hello,',
    signedUp: (label, campaign) => `you signed up for the ${label} newsletter on "${campaign}". Please confirm your subscription:`,
    button: 'Confirm subscription',
    ignore: 'If this was not you, just ignore this e-mail: without a confirmation you will get nothing from us.',
    pageTitle: 'Confirm your newsletter subscription',
    pageText: (label) => `One more click and you will get the ${label} newsletter.`,
    expired: 'This link has expired. Please sign up again.',
    unknownTitle: 'Unknown link',
    unknownText: 'We do not know this confirmation link. Please sign up again.',
  },
};

/** The words of a locale: German for `de*`, English otherwise. */
function wordsOf(locale: string): { lang: 'de' | 'en'; w: Words } {
  const lang = locale.toLowerCase().startsWith('de') ? 'de' : 'en';
  return { lang, w: WORDS[lang] };
}

/**
 * The label's name as fans see it: the campaign app's `config.label_name`, else the server's
 * LABEL_NAME, else the app's title, else the campaign's name. Never the product's own name.
 */
export async function labelNameOf(ctx: ServerContext, campaign: Pick<Campaign, 'app_id' | 'name'>): Promise<string> {
  const app = campaign.app_id ? await ctx.db.selectFrom('cms_apps').select(['title', 'config']).where('id', '=', campaign.app_id).executeTakeFirst() : undefined;
  const fromApp = parseJson<{ label_name?: unknown }>(app?.config ?? null, {}).label_name;
  if (typeof fromApp === 'string' && fromApp.trim()) return fromApp.trim().slice(0, 100);
  return ctx.config.mail.labelName ?? app?.title ?? campaign.name;
}

/** The confirmation e-mail: multipart (text and HTML), in the fan's locale, sent in the label's name. */
export function confirmationMail(to: string, locale: string, label: string, campaignName: string, link: string): MailMessage {
  const { lang, w } = wordsOf(locale);
  const text = `${w.hello}\n\n${w.signedUp(label, campaignName)}\n\n${link}\n\n${w.ignore}\n\n${label}\n`;
  const e = escapeHtml;
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${e(w.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f7;font-family:Arial,Helvetica,sans-serif;color:#1a1a2e">
<div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px">
<p style="font-size:16px;margin:0 0 12px">${e(w.hello)}</p>
<p style="font-size:16px;line-height:1.5;margin:0 0 20px">${e(w.signedUp(label, campaignName))}</p>
<p style="margin:0 0 20px"><a href="${e(link)}" style="display:inline-block;background:#1a1a2e;color:#ffffff;text-decoration:none;font-weight:bold;padding:12px 20px;border-radius:8px">${e(w.button)}</a></p>
<p style="font-size:13px;line-height:1.5;color:#555;margin:0 0 12px">${e(w.ignore)}</p>
<p style="font-size:13px;color:#555;margin:0">${e(label)}</p>
</div></body></html>`;
  return { to, subject: `${w.subject} (${label})`, text, html, fromName: label };
}

const PAGE_STYLE =
  'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#14142b;color:#fff;display:grid;place-items:center;min-height:100vh}' +
  'main{max-width:26rem;margin:1.5rem;padding:2rem;background:#1f1f3a;border-radius:16px;text-align:center}' +
  'h1{font-size:1.5rem;margin:0 0 1rem}p{line-height:1.5}' +
  'button{font:inherit;font-weight:700;font-size:1.1rem;color:#14142b;background:#ffd166;border:0;border-radius:999px;padding:.9rem 1.6rem;min-height:48px;cursor:pointer}' +
  'button:focus-visible{outline:3px solid #fff;outline-offset:3px}.label{opacity:.8;font-size:.9rem}';

function page(lang: string, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/**
 * The page the e-mail's link opens: one button whose form POSTs the token (no script needed). It
 * reads the confirmation but never changes it, so a scanner's GET confirms nothing.
 */
export function confirmationPage(input: { locale: string; label: string; token: string; isExpired: boolean }): string {
  const { lang, w } = wordsOf(input.locale);
  const e = escapeHtml;
  const body = `<h1>${e(w.pageTitle)}</h1>
<p>${e(input.isExpired ? w.expired : w.pageText(input.label))}</p>
<form method="post" action="/api/newsletter/confirm"><input type="hidden" name="token" value="${e(input.token)}"><button type="submit">${e(w.button)}</button></form>
<p class="label">${e(input.label)}</p>`;
  return page(lang, w.pageTitle, body);
}

/** The page of an unknown link (404). */
export function unknownLinkPage(): string {
  const de = WORDS.de;
  const en = WORDS.en;
  return page('en', en.unknownTitle, `<h1>${escapeHtml(en.unknownTitle)}</h1><p>${escapeHtml(en.unknownText)}</p><p lang="de">${escapeHtml(de.unknownText)}</p>`);
}
