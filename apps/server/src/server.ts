import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { ServerContext } from './context.ts';
import type { Config } from './platform/config.ts';
import { migrateToLatest, openDatabase, runAlone } from './platform/db/database.ts';
import { createHttpApp, type App } from './platform/http.ts';
import { connectRedis } from './platform/pubsub/redis.ts';
import { LocalDiskStorage } from './platform/storage.ts';
import { loadDemoCatalog } from './providers/catalog/catalog.ts';
import { createProviders } from './providers/providers.ts';
import { createPartyHub } from './realtime/hubFactory.ts';
import { databaseSeqBlocks } from './realtime/seqBlocks.ts';
import { UnitOfWork } from './realtime/unitOfWork.ts';
import { ChatSeqRecorder } from './party/chat/messages/publish.ts';
import { checkReadiness } from './platform/readiness.ts';
import { closeListener, listen, socketListenerFor, socketListenerUrl } from './platform/socketListener.ts';
import { Metrics, registerMetrics } from './platform/metrics.ts';
import { registerPartySurface, type PartyRuntime } from './party/surface.ts';
import { registerCmsSurface } from './cms/surface.ts';
import { auditScheduledRun } from './cms/editorial/audit.ts';
import { campaignScheduleJob } from './cms/editorial/publish.ts';
import { presaveJob } from './cms/presave/job.ts';
import { retentionJob } from './dataRights/retention.ts';
import { changesOf } from './platform/db/cache.ts';
import { JobScheduler } from './platform/jobs.ts';
import { seedDemo } from './demo/seed.ts';
import { cmsUserTokenResolver } from './cms/users/sessions.ts';
import { ensureFirstAdmin } from './cms/users/bootstrap.ts';
import { CampaignLockEvents } from './cms/campaigns/lockEvents.ts';
import { AppTranslationsCache } from './cms/i18n/service.ts';
import { FakeTraffic } from './party/chat/fake/service.ts';
import { QueueRefreshes } from './party/timeline/queue.ts';
import { createMailer } from './platform/mail.ts';
import { sweepRateCountersEvery } from './platform/limits/counters.ts';
import { idempotencyPurgeJob } from './platform/idempotency.ts';

export type Surface = 'party' | 'cms';

export interface RunningServer {
  ctx: ServerContext;
  /** The party domains' runtime (null without the party listener); tests read its counters. */
  partyRuntime: PartyRuntime | null;
  party: App | null;
  cms: App | null;
  /** Base URLs the listeners answer on; `sockets` is the SOCKET_PORT listener's (null: none). */
  urls: { party: string | null; cms: string | null; sockets: string | null };
  close(): Promise<void>;
}

export interface StartOptions {
  only?: Surface;
  logger: Logger;
}

/** Opens the database, applies migrations, and starts the party and CMS listeners. */
export async function startServer(config: Config, opts: StartOptions): Promise<RunningServer> {
  const { logger } = opts;
  // One process is one node: named by its machine and party port (the scrape adds its own `instance`).
  const metrics = new Metrics(`${os.hostname()}:${config.partyPort}`);
  const database = openDatabase(config.databaseUrl, {
    onQuery: (ms, failed) => metrics.queryDuration.observe({ outcome: failed ? 'error' : 'ok' }, ms / 1000),
    statementTimeoutMs: config.dbStatementTimeoutMs,
    // Message and code only: a pg error carries its whole client object.
    onConnectionError: (err) =>
      logger.warn({ error: err.message, code: (err as { code?: string }).code }, 'database connection lost; the pool reconnects on the next query'),
  });
  metrics.watchPool(database.poolStats);
  // Start-up may wait longer than a request's deadline (a long migration, another node's start-up
  // writes): on PostgreSQL, migrations and the start-up lock use a connection of their own without it.
  const startup = database.dialect === 'postgres' ? openDatabase(config.databaseUrl) : database;
  const closeStartup = async () => {
    if (startup !== database) await startup.close();
  };
  const applied = await migrateToLatest(startup.db).catch(async (e: unknown) => {
    await closeStartup();
    await database.close();
    throw e;
  });
  if (applied.length > 0) logger.info({ migrations: applied }, 'applied migrations');
  // The read caches of every node hear of the writes made on the others (issue 16).
  if (config.redisUrl) await database.changes.connect(connectRedis(config.redisUrl, config.redisKeyPrefix, logger), logger);
  const hub = createPartyHub(config, () => ctx.now(), logger, databaseSeqBlocks(database.db));
  const ctx: ServerContext = {
    config,
    db: database.db,
    dialect: database.dialect,
    logger,
    storage: metrics.meterStorage(new LocalDiskStorage(path.join(config.dataDir, 'uploads'))),
    catalog: loadDemoCatalog(),
    providers: createProviders(config),
    hub,
    unitOfWork: new UnitOfWork(hub, logger),
    chatSeqs: new ChatSeqRecorder(database.db, logger),
    cmsTokenResolvers: [],
    mailer: metrics.meterMailer(createMailer(config)),
    campaignLocks: new CampaignLockEvents(),
    appTranslations: new AppTranslationsCache(),
    queueRefreshes: new QueueRefreshes(),
    now: () => Date.now(),
    metrics,
  };
  ctx.cmsTokenResolvers.push(cmsUserTokenResolver(ctx));
  try {
    // Nodes starting together (a fresh cluster, an upgrade) would race to create the same rows.
    await runAlone(startup.db, ctx.dialect, 'fanfare:start-up writes', async () => {
      await ensureFirstAdmin(ctx);
      if (config.demo.seed) await seedDemo(ctx);
    });
  } catch (e) {
    // A refused start (production without a first admin password) leaves nothing open.
    await ctx.mailer.close();
    await ctx.hub.close();
    await closeStartup();
    await database.close();
    throw e;
  }
  await closeStartup();

  const dependencies = [{ name: 'database', probe: database.probe }, ...ctx.hub.dependencies()];
  let draining = false;
  // A draining node says so, so a load balancer that reads /readyz stops sending it anyone.
  const isReady = async () => {
    const answer = await checkReadiness(dependencies);
    return draining ? { ready: false, checks: { ...answer.checks, node: 'draining' as const } } : answer;
  };
  const base = { logger, isReady, bodyLimit: config.uploadMaxBytes + 64 * 1024, trustProxy: config.trustProxy ?? false };
  const party = opts.only === 'cms' ? null : await createHttpApp({ ...base, name: 'party', title: 'Fanfare party API', publicUrl: config.publicUrl });
  const cms = opts.only === 'party' ? null : await createHttpApp({ ...base, name: 'cms', title: 'Fanfare CMS API', publicUrl: config.cmsPublicUrl });
  const closers: (() => Promise<void>)[] = [sweepRateCountersEvery(ctx.db, () => ctx.now(), logger)];
  if (party) registerMetrics(party, 'party', metrics, config.metricsToken);
  if (cms) registerMetrics(cms, 'cms', metrics, config.metricsToken);
  // One scheduler for every due-time action (timeline, polls, scheduled messages, retention,
  // scheduled campaign publishes), whichever listeners this node runs.
  const jobs = new JobScheduler(() => ctx.now(), ctx.logger, config.live.timelineTickMs, changesOf(ctx.db));
  const jobMetrics = ctx.metrics;
  if (jobMetrics) jobs.onLag = (job, lateMs) => jobMetrics.jobLag.observe({ job }, lateMs / 1000);
  closers.push(() => jobs.close());
  jobs.add(retentionJob(ctx), campaignScheduleJob(ctx, auditScheduledRun(ctx)), idempotencyPurgeJob({ db: ctx.db, now: () => ctx.now() }), presaveJob(ctx));
  let partyRuntime: PartyRuntime | null = null;
  if (party) {
    partyRuntime = { fakeTraffic: new FakeTraffic(ctx) };
    closers.push(...(await registerPartySurface(party, ctx, partyRuntime, jobs)));
  }
  if (cms) await registerCmsSurface(cms, ctx);
  jobs.start();

  const socketPort = party ? config.socketPort : null;
  const socketListener = socketPort !== null && party ? socketListenerFor(party.server) : null;
  let closing: Promise<void> | null = null;
  // Stop accepting, let in-flight requests finish, then stop timers and the database.
  const close = () =>
    (closing ??= (async () => {
      if (party && partyRuntime?.drainSockets) {
        // New connections go to the other nodes (the proxy's next upstream) while this one's
        // fans leave in slices; requests under way, chat posts among them, still finish.
        draining = true;
        if (party.server.listening) party.server.close();
        if (socketListener?.listening) socketListener.close();
        await partyRuntime.drainSockets();
      }
      await Promise.all([party?.close(), cms?.close(), socketListener && closeListener(socketListener)]);
      for (const closer of closers) await closer();
      await ctx.mailer.close();
      await ctx.hub.close();
      await database.close();
    })());

  try {
    // A deep accept queue: after a restart thousands of fans reconnect within seconds, and a
    // full queue makes the kernel drop their SYNs, which they retry on TCP's backoff, not ours.
    if (party) await party.listen({ host: config.host, port: config.partyPort, backlog: config.live.listenBacklog });
    if (socketListener && socketPort !== null) await listen(socketListener, config.host, socketPort, config.live.listenBacklog);
    if (cms) await cms.listen({ host: config.host, port: config.cmsPort, backlog: config.live.listenBacklog });
  } catch (e) {
    // A port already taken: release the timers, hub and database made above, then report it.
    await close();
    throw e;
  }

  return {
    ctx,
    partyRuntime,
    party,
    cms,
    urls: { party: party ? config.publicUrl : null, cms: cms ? config.cmsPublicUrl : null, sockets: socketListenerUrl(socketListener) },
    close,
  };
}
