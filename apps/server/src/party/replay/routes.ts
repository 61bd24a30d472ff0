import { PARTY_ROUTES } from '@fanfare/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.ts';
import { HttpError, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import type { JobScheduler } from '../../platform/jobs.ts';
import { partyRoute } from '../route.ts';
import { addVary } from '../../platform/staticAssets.ts';
import { pickEncoding } from '../webApp.ts';
import { listHidden, loadDocument, loadManifest, replayJob, setHidden, type EncodedBody } from './service.ts';

/** The manifest may change (a host hides an item): caches keep it briefly and revalidate by ETag. */
const MANIFEST_CACHE = 'public, max-age=15, stale-while-revalidate=60';
/** A document never changes under its build number: any cache (a CDN, nginx) may keep it for good. */
const DOCUMENT_CACHE = 'public, max-age=31536000, immutable';

/**
 * Answers 304 when the client holds `etag`, else the stored bytes as JSON, compressed as the client
 * accepts (brotli, else gzip, else plain; compressed once at build or load, never per request). One
 * ETag for every encoding: the same document, whatever the transfer; `Vary` keeps shared caches apart.
 */
function sendStored(req: FastifyRequest, reply: FastifyReply, etag: string, cacheControl: string, body: EncodedBody): FastifyReply {
  void reply.header('etag', etag).header('cache-control', cacheControl);
  addVary(reply, 'Accept-Encoding');
  const held = req.headers['if-none-match'];
  if (held && held.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`)) return reply.status(304).send();
  void reply.type('application/json; charset=utf-8');
  const encoding = pickEncoding(req.headers['accept-encoding']);
  if (!encoding) return reply.send(body.plain);
  return reply.header('content-encoding', encoding).send(encoding === 'br' ? body.br : body.gzip);
}

/**
 * Party Replay (issue 47). The manifest and the documents are public once the party has ended (a
 * link the host shares): they carry only what the party's chat showed every fan, minus what
 * `build.ts` leaves out. The hide calls need `replay.moderate` in the party.
 */
export async function registerReplay(app: App, ctx: ServerContext, jobs: JobScheduler): Promise<void> {
  const route = partyRoute(ctx);
  jobs.add(replayJob(ctx));

  route(app, PARTY_ROUTES.getPartyReplay, async (req, reply) => {
    const { manifest, body } = await loadManifest(ctx, req.params.id);
    return sendStored(req, reply, `"r${manifest.build}"`, MANIFEST_CACHE, body);
  });

  route(app, PARTY_ROUTES.getPartyReplayTrack, async (req, reply) => {
    const { id, build, play } = req.params;
    const body = await loadDocument(ctx, id, build, play);
    if (body) return sendStored(req, reply, `"r${build}-${play}"`, DOCUMENT_CACHE, body);
    // A build replaced long ago (its manifest is stale): 410 tells the app to load the manifest again.
    const { manifest } = await loadManifest(ctx, id);
    if (build < manifest.build) throw new HttpError(410, `Build ${build} of this replay was replaced by build ${manifest.build}`);
    throw notFound(`No play ${play} in build ${build} of this replay`);
  });

  route(app, PARTY_ROUTES.getReplayHidden, async (req) => listHidden(ctx, req.params.id));
  route(app, PARTY_ROUTES.hideReplayItem, async (req) => {
    const answer = await setHidden(ctx, req.params.id, req.params.itemId, true);
    jobs.poke();
    return answer;
  });
  route(app, PARTY_ROUTES.showReplayItem, async (req) => {
    const answer = await setHidden(ctx, req.params.id, req.params.itemId, false);
    jobs.poke();
    return answer;
  });
}
