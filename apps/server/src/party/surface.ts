import staticFiles from '@fastify/static';
import type { ServerContext } from '../context.ts';
import type { App } from '../platform/http.ts';
import { JobScheduler } from '../platform/jobs.ts';
import { registerAppleEmulator } from '../providers/emulators/appleEmulator.ts';
import { registerSpotifyEmulator } from '../providers/emulators/spotifyEmulator.ts';
import { registerMusicRoutes } from '../providers/music/routes.ts';
import { registerAuthRoutes } from './auth/routes.ts';
import { registerLiveReadAccess } from './liveAccess.ts';
import { registerPartyAbuseLimits } from './abuseLimits.ts';
import { registerChat } from './chat/register.ts';
import { registerLive } from './live/register.ts';
import { registerGrantRoutes } from './grants/routes.ts';
import { registerUploadRoutes } from './uploads/routes.ts';
import { registerUserRoutes } from './users/routes.ts';
import { registerPartyWebApp } from './webApp.ts';

/** Something to run at shutdown (timers, subscriptions). */
export type Closer = () => Promise<void>;

/** The party API: fan identity, parties, music search, the emulators when no credentials are set. */
export async function registerPartySurface(app: App, ctx: ServerContext): Promise<Closer[]> {
  await registerPartyAbuseLimits(app, ctx);
  // Cover art and audio of the demo catalog: public, immutable.
  await app.register(staticFiles, {
    root: ctx.catalog.dir,
    prefix: '/media/catalog/',
    decorateReply: false,
    allowedPath: (pathName) => /^\/(covers|audio)\//.test(pathName),
    maxAge: '1d',
  });
  if (ctx.config.emulators.spotify) await registerSpotifyEmulator(app, ctx);
  if (ctx.config.emulators.apple) await registerAppleEmulator(app, ctx);
  registerLiveReadAccess(app, ctx);
  await registerAuthRoutes(app, ctx);
  await registerUserRoutes(app, ctx);
  await registerGrantRoutes(app, ctx);
  await registerUploadRoutes(app, ctx);
  await registerMusicRoutes(app, ctx);
  // One scheduler for every due-time action of the party domains (timeline, polls, schedule).
  const jobs = new JobScheduler(() => ctx.now(), ctx.logger, ctx.config.live.timelineTickMs);
  const closers: Closer[] = [() => jobs.close()];
  closers.push(...(await registerLive(app, ctx, jobs)));
  closers.push(...(await registerChat(app, ctx, jobs)));
  jobs.start();
  await registerPartyWebApp(app, ctx);
  return closers;
}
