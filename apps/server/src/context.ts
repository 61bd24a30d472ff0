import type { Logger } from 'pino';
import type { CampaignLockEvents } from './cms/campaigns/lockEvents.ts';
import type { AppTranslationsCache } from './cms/i18n/service.ts';
import type { QueueRefreshes } from './party/timeline/queue.ts';
import type { Config } from './platform/config.ts';
import type { Db, Dialect } from './platform/db/database.ts';
import type { Mailer } from './platform/mail.ts';
import type { Metrics } from './platform/metrics.ts';
import type { Storage } from './platform/storage.ts';
import type { DemoCatalog } from './providers/catalog/catalog.ts';
import type { Providers } from './providers/providers.ts';
import type { PartyStream } from './realtime/hub.ts';
import type { UnitOfWork } from './realtime/unitOfWork.ts';
import type { ChatSeqRecorder } from './party/chat/messages/publish.ts';

/** Resolves a CMS token to the back-office identity behind it, or null. */
export type CmsTokenResolver = (token: string) => Promise<{ id: string; name: string } | null>;

/**
 * What every domain's routes and services receive: the process's shared resources. The composition
 * root (`server.ts`) builds all of it, per-node domain state included, so two servers in one
 * process (tests, the cluster suite) never share state hung off a module.
 */
export interface ServerContext {
  config: Config;
  db: Db;
  dialect: Dialect;
  logger: Logger;
  storage: Storage;
  catalog: DemoCatalog;
  providers: Providers;
  /** Real-time delivery of party events, read side: subscriptions, history, readiness. */
  hub: PartyStream;
  /** The one publish path: a write and the events it announces, published after the commit. */
  unitOfWork: UnitOfWork;
  /** Writes the seq_ids published chat messages got back to their rows, batched. */
  chatSeqs: ChatSeqRecorder;
  /** Who may present a CMS token (`X-Cms-Token`); the CMS domain adds its users' tokens. */
  cmsTokenResolvers: CmsTokenResolver[];
  /** The CMS's mail: SMTP from configuration, or the local outbox. */
  mailer: Mailer;
  /** Campaign edit-lock announcements to the editors open on this node. */
  campaignLocks: CampaignLockEvents;
  /** Apps' translations as this node last read them. */
  appTranslations: AppTranslationsCache;
  /** Per party: the queue order this node last published and its refreshes in flight. */
  queueRefreshes: QueueRefreshes;
  /** Milliseconds since the epoch; replaceable in tests. */
  now: () => number;
  /** The operator's Prometheus figures (`/metrics`); absent in contexts built by hand in tests. */
  metrics?: Metrics;
}
