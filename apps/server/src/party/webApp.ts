import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CAMPAIGN_META } from '@fanfare/protocol';
import { campaignForParty } from '../cms/demoCampaign.ts';
import { inlineStylesheets } from '../cms/pages/webApp.ts';
import { escapeHtml } from '../platform/html.ts';
import { addVary, registerHashedAssets } from '../platform/staticAssets.ts';
import { pageHeaders } from '../platform/securityHeaders.ts';
import { framingOrigins } from '../platform/webConfig.ts';
import type { ServerContext } from '../context.ts';
import { DEMO_PARTY_ID } from '../demo/seed.ts';
import type { App } from '../platform/http.ts';
import { registerLegalPages } from './legal/routes.ts';
import { providerSdkMetas } from '../providers/sdkScripts.ts';

/** Where `npm run build -w @fanfare/party-web` writes the app. */
export const PARTY_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../party-web/dist');

/** How long a party page reuses its campaign lookup (a campaign edit shows within this time). */
const CAMPAIGN_LOOKUP_TTL_MS = 30_000;
const CAMPAIGN_LOOKUP_MAX_PARTIES = 1_000;
/** Compressed pages kept (one per party page and encoding); bounded like the campaign memo. */
const COMPRESSED_PAGES_MAX = 1_000;

/** A party id as it may appear in `/p/{partyId}/`: also what is written into the page. */
const PartyIdPath = z.object({ partyId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });

/**
 * The listening-party web app (spec 2): `/` serves the default party (the demo party of a fresh
 * install), `/p/{partyId}/` the same page for that party. The party id reaches the app as
 * `<meta name="fanfare-party-id">`. Assets are content-hashed and cached for good, and sent
 * pre-compressed (`.br`, `.gz` written by the build, as for the campaign page) to browsers that
 * accept it; the page itself is revalidated on every load (ETag, 304) so a new build is picked up
 * at once.
 */
export async function registerPartyWebApp(app: App, ctx: ServerContext, distDir: string = PARTY_WEB_DIST): Promise<void> {
  const assetsDir = path.join(distDir, 'assets');
  fs.mkdirSync(assetsDir, { recursive: true });
  await registerHashedAssets(app, assetsDir, '/assets/');

  let cached: { mtimeMs: number; html: string } | null = null;
  const readIndex = (): string | null => {
    const file = path.join(distDir, 'index.html');
    try {
      const { mtimeMs } = fs.statSync(file);
      // The stylesheet is written into the page: the first paint waits for no other request (issue 16).
      if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, html: inlineStylesheets(fs.readFileSync(file, 'utf8'), assetsDir, '/assets/') };
      return cached.html;
    } catch {
      return null;
    }
  };

  // Every page view needs the party's campaign, and a party start brings thousands of page views
  // at once: the lookup scans all campaigns, so its answer is kept for a short while per party.
  const campaigns = new Map<string, { at: number; value: Promise<Awaited<ReturnType<typeof campaignForParty>>> }>();
  const newsletterCampaign = (partyId: string) => {
    const now = Date.now();
    const hit = campaigns.get(partyId);
    if (hit && now - hit.at < CAMPAIGN_LOOKUP_TTL_MS) return hit.value;
    const value = campaignForParty(ctx, partyId);
    // Party ids come from the address: bound the memo so made-up ids cannot grow it.
    if (campaigns.size >= CAMPAIGN_LOOKUP_MAX_PARTIES) campaigns.clear();
    campaigns.set(partyId, { at: now, value });
    value.catch(() => campaigns.delete(partyId));
    return value;
  };

  const previewOrigins = framingOrigins(ctx.config);
  const page = async (partyId: string) => {
    const html = readIndex();
    if (html === null) return null;
    // The id passed the PartyIdPath pattern, so it holds no HTML-significant characters.
    const withId = html.replace(/<meta name="fanfare-party-id" content="[^"]*"\s*\/?>/, `<meta name="fanfare-party-id" content="${partyId}" />`);
    // The providers' SDK scripts: official with credentials, the emulators' stand-ins otherwise.
    const sdkMetas = providerSdkMetas(ctx.config)
      .map(([name, content]) => `<meta name="${name}" content="${escapeHtml(content)}" />`)
      .join('');
    // The back office previews this page in a frame: the origins whose preview frames the page
    // accepts, and answers. The CMS origin first; the configured origins as well.
    const previewMeta = `<meta name="fanfare-preview-origins" content="${escapeHtml(previewOrigins.join(' '))}" />`;
    const withApple = withId.replace('</head>', `${previewMeta}${sdkMetas}</head>`);
    // A campaign that names this party offers its newsletter on the party page (spec 1).
    const campaign = await newsletterCampaign(partyId).catch((err: unknown) => {
      // The page must render even when the campaign lookup fails: the form is then left out.
      ctx.logger.warn({ err, partyId }, 'campaign lookup for the party page failed');
      return null;
    });
    if (!campaign) return withApple;
    let metas = '';
    // A gated campaign's party sends fans without access to the gate (listening-party §2): the
    // page reads the gate from the campaign configuration, as the campaign pages do.
    if (campaign.tokenGate) {
      const config = { id: campaign.id, token_gate: { enabled: true, product_id: campaign.tokenGate.productId }, token_gate_url: campaign.tokenGate.gateUrl };
      metas += `<meta name="${CAMPAIGN_META.campaign}" content="${escapeHtml(JSON.stringify(config))}" />`;
    }
    if (campaign.newsletterIds.length > 0) {
      const url = `${ctx.config.cmsPublicUrl}/api/campaigns/${encodeURIComponent(campaign.id)}/newsletter/signup`;
      metas +=
        `<meta name="fanfare-newsletter-url" content="${escapeHtml(url)}" />` +
        `<meta name="fanfare-newsletter-ids" content="${escapeHtml(campaign.newsletterIds.join(','))}" />`;
    }
    return withApple.replace('</head>', `${metas}</head>`);
  };

  const compressedPages = new Map<string, Buffer>();
  const send = async (req: FastifyRequest, reply: FastifyReply, partyId: string) => {
    const html = await page(partyId);
    if (html === null) {
      ctx.logger.warn({ distDir }, 'party web app is not built');
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The party web app is not built. Run: npm run build -w @fanfare/party-web');
    }
    // The page differs per party and per build: its ETag is its content's, so a reload with an
    // unchanged page costs a 304 and no body. Weak: the br, gzip and plain bodies share it.
    const etag = `W/"${createHash('sha1').update(html).digest('base64url')}"`;
    reply.header('cache-control', 'no-cache').header('etag', etag);
    addVary(reply, 'Accept-Encoding');
    if (ifNoneMatch(req.headers['if-none-match'], etag)) return reply.status(304).send();
    reply.type('text/html; charset=utf-8');
    // The page carries the stylesheet: compressed once per page and encoding, then reused.
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (!encoding) return reply.send(html);
    const key = `${etag}|${encoding}`;
    let body = compressedPages.get(key);
    if (!body) {
      body = encoding === 'br' ? brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } }) : gzipSync(html, { level: 9 });
      if (compressedPages.size >= COMPRESSED_PAGES_MAX) compressedPages.clear();
      compressedPages.set(key, body);
    }
    return reply.header('content-encoding', encoding).send(body);
  };

  // Only the origins the page answers previews to may frame it (the back office's preview).
  const helmet = pageHeaders(framingOrigins(ctx.config), 'same-origin');
  app.get('/', { schema: { hide: true }, helmet }, async (req, reply) => send(req, reply, DEMO_PARTY_ID));
  app.get('/p/:partyId', { schema: { hide: true, params: PartyIdPath } }, async (req, reply) => {
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    return reply.redirect(`/p/${req.params.partyId}/${query}`);
  });
  app.get('/p/:partyId/', { schema: { hide: true, params: PartyIdPath }, helmet }, async (req, reply) => send(req, reply, req.params.partyId));
  await registerLegalPages(app, ctx);
}

/** Whether an `If-None-Match` header names this ETag (a list and `*` included; weak comparison, as RFC 9110 asks). */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/** The encoding to send a page in: brotli, else gzip, when the browser accepts it (q above 0); else none. */
export function pickEncoding(header: string | string[] | undefined): 'br' | 'gzip' | null {
  const accepted = new Set<string>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}
