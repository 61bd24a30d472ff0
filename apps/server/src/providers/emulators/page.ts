import { escapeHtml } from '../../platform/html.ts';

/** A minimal, escaped HTML page for the emulators' consent screens (an empty inline icon: no /favicon.ico 404). */
export function consentPage(title: string, intro: string, choices: { label: string; href: string }[], cancelHref: string): string {
  const items = choices
    .map((c) => `<li><a class="approve" href="${escapeHtml(c.href)}">${escapeHtml(c.label)}</a></li>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#14142b}
h1{font-size:1.4rem}ul{list-style:none;padding:0}li{margin:.5rem 0}
a.approve{display:block;padding:.8rem 1rem;border-radius:2rem;background:#1db954;color:#fff;text-decoration:none;font-weight:600}
a.approve:focus{outline:3px solid #14142b;outline-offset:2px}a.cancel{color:#555}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(intro)}</p><ul>${items}</ul>
<p><a class="cancel" href="${escapeHtml(cancelHref)}">Cancel</a></p></main></body></html>`;
}
