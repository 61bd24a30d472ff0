import { registerFanDataRightsRoutes } from '../dataRights/routes.ts';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import staticFiles from '@fastify/static';
import type { ServerContext } from '../context.ts';
import type { App } from '../platform/http.ts';
import type { JobScheduler } from '../platform/jobs.ts';
import { EmulatorLibrary, registerEmulatorControl } from '../providers/emulators/library.ts';
import { registerAppleEmulator } from '../providers/emulators/appleEmulator.ts';
import { registerSpotifyEmulator } from '../providers/emulators/spotifyEmulator.ts';
import { registerMusicRoutes } from '../providers/music/routes.ts';
import { registerAuthRoutes } from './auth/routes.ts';
import { registerChat } from './chat/register.ts';
import type { FakeTraffic } from './chat/fake/service.ts';
import { registerRecapAndExportRoutes } from './exports/routes.ts';
import { registerReplay } from './replay/routes.ts';
import { registerPartyLive } from './sockets.ts';
import { registerGrantRoutes } from './grants/routes.ts';
import { registerUploadRoutes } from './uploads/routes.ts';
import { registerUserRoutes } from './users/routes.ts';
import { registerPartyWebApp } from './webApp.ts';

/** The Spotify emulator's Web API paths (CORS for any origin). */
const EMULATOR_WEB_API = /^\/emulator\/(spotify\/api|apple)\/v1\//;
const EMULATOR_WEB_API_CORS = { origin: '*', credentials: false, methods: ['GET', 'POST', 'PUT', 'DELETE'], allowedHeaders: ['Authorization', 'Content-Type', 'Music-User-Token'], maxAge: 600 };

/** Something to run at shutdown (timers, subscriptions). */
export type Closer = () => Promise<void>;

/** What the composition root builds for the party domains (tests read its counters). */
export interface PartyRuntime {
  fakeTraffic: FakeTraffic;
  /** Sends the fans to other nodes before the listener closes (set by the live side). */
  drainSockets?: () => Promise<void>;
}

/** The party API: fan identity, parties, music search, the emulators when no credentials are set. */
export async function registerPartySurface(app: App, ctx: ServerContext, runtime: PartyRuntime, jobs: JobScheduler): Promise<Closer[]> {
  // One CORS registration for the listener (a second one in a child plugin clashes). The back
  // office (CMS origin) runs party admin calls from the browser: only the configured origins may.
  // Static options, not a per-request delegator: the delegator re-normalised them on every request
  // (about 5 % of a cached GET, issue 16). Tokens travel in headers, never cookies: no credentials.
  const allowed = new Set(ctx.config.allowedRedirectOrigins);
  // The emulators' routes carry their own CORS (route config, read by @fastify/cors per request):
  // the Spotify emulator's Web API and the Apple emulator's Music API answer any origin, as Spotify
  // and Apple do (the campaign page drives its player; MusicKit looks songs up from the page); the
  // accounts and consent pages stay same-origin, as the providers' do for the code exchange. Registered before the emulators so their routes pass through it.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/emulator/')) return;
    // @fastify/cors reads `config.cors` but does not type it.
    route.config = { ...route.config, cors: EMULATOR_WEB_API.test(route.url) ? EMULATOR_WEB_API_CORS : false } as typeof route.config;
  });
  // Preflights are answered by the route they match: the emulator API's own, or none for the rest.
  app.options('/emulator/spotify/api/v1/*', { schema: { hide: true } }, (_req, reply) => reply.callNotFound());
  app.options('/emulator/apple/v1/*', { schema: { hide: true } }, (_req, reply) => reply.callNotFound());
  app.options('/emulator/*', { schema: { hide: true } }, (_req, reply) => reply.callNotFound());
  await app.register(cors, {
    origin: (origin, cb) => cb(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['content-type', 'authorization', 'x-cms-token'],
    maxAge: 600,
  });
  // The entries' rate limits per client address (`platform/rateLimits.ts`); none applies globally.
  await app.register(rateLimit, { global: false });
  // Cover art and audio of the demo catalog: public, immutable.
  await app.register(staticFiles, {
    root: ctx.catalog.dir,
    prefix: '/media/catalog/',
    decorateReply: false,
    allowedPath: (pathName) => /^\/(covers|audio)\//.test(pathName),
    maxAge: '1d',
  });
  // One library and availability map for both emulators, steered through /emulator/control.
  const emulatorLibrary = new EmulatorLibrary();
  if (ctx.config.emulatorRoutes.spotify) await registerSpotifyEmulator(app, ctx, emulatorLibrary);
  if (ctx.config.emulatorRoutes.apple) await registerAppleEmulator(app, ctx, emulatorLibrary);
  if (ctx.config.emulatorRoutes.spotify || ctx.config.emulatorRoutes.apple) await registerEmulatorControl(app, emulatorLibrary);
  await registerAuthRoutes(app, ctx);
  await registerUserRoutes(app, ctx);
  await registerFanDataRightsRoutes(app, ctx);
  await registerGrantRoutes(app, ctx);
  await registerUploadRoutes(app, ctx);
  await registerMusicRoutes(app, ctx);
  await registerRecapAndExportRoutes(app, ctx);
  // The server's one scheduler (made in server.ts) takes the party domains' due-time jobs.
  const closers: Closer[] = [];
  closers.push(...(await registerPartyLive(app, ctx, jobs, runtime)));
  closers.push(...(await registerChat(app, ctx, jobs, runtime.fakeTraffic)));
  await registerReplay(app, ctx, jobs);
  await registerPartyWebApp(app, ctx);
  return closers;
}
