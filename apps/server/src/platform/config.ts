import path from 'node:path';
import { z } from 'zod';
import { CHAT_BATCH_WINDOW_MS } from '@fanfare/protocol';

/**
 * Every setting of the server program, read once from the environment.
 * The README documents each variable; defaults are the embedded set-up (SQLite, in-process pub/sub,
 * built-in provider emulators), so `npm start` works on a fresh machine with nothing configured.
 */
export interface Config {
  /** NODE_ENV=production: unsafe settings are refused, emulators and the demo seed run only when named. */
  production: boolean;
  host: string;
  partyPort: number;
  /** A port of its own for the party sockets' upgrades (SOCKET_PORT); null: they share PORT. */
  socketPort: number | null;
  cmsPort: number;
  /** Public base URL of the party API (what browsers and providers are sent to). */
  publicUrl: string;
  /** Public base URL of the CMS API. */
  cmsPublicUrl: string;
  dataDir: string;
  /** `sqlite:<file>` or `postgres://...` */
  databaseUrl: string;
  redisUrl: string | null;
  /** Prefix of every Redis key and channel (several deployments or tests may share one Redis). */
  redisKeyPrefix: string;
  /** The live party: socket batching, heartbeat, shedding, timeline timers, retained events. */
  live: LiveConfig;
  /**
   * The origins of the deployment's own surfaces (PUBLIC_URL, CMS_PUBLIC_URL) and any operator's
   * extra ones (ALLOWED_REDIRECT_ORIGINS): the one list that CORS, login and newsletter redirects,
   * editor `postMessage` and `frame-ancestors` derive from.
   */
  allowedRedirectOrigins: string[];
  /** Bearer token that opens `/metrics` on each listener; null: no `/metrics` (404). */
  metricsToken: string | null;
  /** Addresses of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (Fastify's `trustProxy`); null: none. */
  trustProxy: string | null;
  /** Static admin token for party admin calls until CMS users exist; null means no such token. */
  cmsAdminToken: string | null;
  /** Key that signs OAuth state values. Random per process when unset. */
  sessionSecret: string;
  /** Lifetime of a fan's access token. */
  accessTokenTtlMs: number;
  spotify: SpotifyConfig;
  apple: AppleConfig;
  /** True when a provider's built-in emulator answers instead of the real provider (no credentials; in production only when named in EMULATORS). */
  emulators: { spotify: boolean; apple: boolean };
  /**
   * Whether a provider's emulator routes (`/emulator/...`) are mounted: when it is emulated, and
   * outside production also when EMULATORS names it next to credentials, so a test can point the
   * real-provider set-up (official SDK scripts, provider URLs) at the built-in emulator.
   */
  emulatorRoutes: { spotify: boolean; apple: boolean };
  demo: { seed: boolean; startDelayMs: number };
  /** Folder with the operator's `imprint.html`, `privacy.html`, `terms.html` (issue 15); a party's own settings win. */
  legalDir: string | null;
  logLevel: string;
  uploadMaxBytes: number;
  /**
   * Party Replay: the cap on one play's document (REPLAY_DOCUMENT_MAX_BYTES, JSON before
   * compression); over it the build leaves out chat first, oldest first, and says how many.
   */
  replay: { documentMaxBytes: number };
  /** How often each node stores its listeners by effective source for the recap (SOURCE_SAMPLE_SECONDS). */
  sourceSampleMs: number;
  /** Deadline of one database statement (and of a wait for a connection or a SQLite lock): 503 beyond it. */
  dbStatementTimeoutMs: number;
  /** Limits against abuse (issue 10): signups, Apple logins, sockets and upload quotas. */
  abuse: {
    anonSignupsPer10Min: number;
    appleLoginsPerMinute: number;
    uploadsPerFanPerMinute: number;
    maxSocketsPerFan: number;
    uploadQuotaPerFanBytes: number;
    uploadQuotaPerPartyBytes: number;
  };
  /**
   * Retention (data rights, docs/SECURITY.md): unconfirmed newsletter signups and uploads nothing
   * refers to are purged after these periods by the scheduler's retention job.
   */
  retention: { unconfirmedNewsletterMs: number; unusedUploadMs: number };
  /** Outgoing mail: SMTP when `smtpUrl` is set, else a local outbox under DATA_DIR/outbox. */
  mail: MailConfig;
  /** The campaign system (CMS API). */
  cms: CmsConfig;
  /**
   * HLS previews from the providers' preview files (spec §7), transcoded by
   * ffmpeg (FFMPEG_PATH) into DATA_DIR/previews, at most `cacheMaxBytes` (PREVIEW_CACHE_MAX_MB).
   */
  previews: { ffmpegPath: string; cacheMaxBytes: number };
}

export interface MailConfig {
  smtpUrl: string | null;
  from: string;
  /**
   * The label's name in fans' e-mails and on the confirmation page when the campaign's app names
   * none (`config.label_name`): LABEL_NAME, else null (the app's title is used).
   */
  labelName: string | null;
}

export interface CmsConfig {
  /** First admin of a fresh install; with neither set a random password is generated and printed once. */
  adminEmail: string | null;
  adminPassword: string | null;
  sessionTtlMs: number;
  lockTtlMs: number;
  /** Login attempts per IP and minute. */
  loginRateLimit: number;
  /** Environment embedded in campaign pages: staging, production or local. */
  environment: 'staging' | 'production' | 'local';
  /** Header a proxy sets with the visitor's country (e.g. cf-ipcountry). */
  geoCountryHeader: string;
  geoDefaultCountry: string;
  geoDefaultLanguage: string;
  tokenGateKeyTtlMs: number;
  accountAccessTtlMs: number;
  accountRefreshTtlMs: number;
  newsletterConfirmTtlMs: number;
  /** Lifetime of an in-app browser handover link (HANDOVER_TTL_MINUTES, at most 60). */
  handoverTtlMs: number;
}

export interface LiveConfig {
  /** Window over which a party's events are batched into one socket frame. */
  socketBatchMs: number;
  /** The batch window while the node's event loop runs late (SOCKET_BUSY_BATCH_MS). */
  socketBusyBatchMs: number;
  /** The batch window while the node takes a reconnect storm (SOCKET_STORM_BATCH_MS). */
  socketStormBatchMs: number;
  /** Sockets arriving within a second that make a reconnect storm (SOCKET_STORM_JOINS_PER_SECOND). */
  socketStormJoinsPerSecond: number;
  /** Sockets a party's cycle writes to per turn of the event loop at most (SOCKET_SWEEP_CHUNK). */
  socketSweepChunk: number;
  /** Milliseconds of socket writes after which a cycle's turn ends while a request is under way (SOCKET_SWEEP_BUDGET_MS). */
  socketSweepBudgetMs: number;
  /** Server ping interval; a socket silent for three intervals is closed. */
  socketHeartbeatMs: number;
  /** On SIGTERM the node's sockets close at this many a second (0: all at once; SOCKET_DRAIN_PER_SECOND). */
  socketDrainPerSecond: number;
  /** A socket whose unsent bytes stay above this for `socketSlowGraceMs` is shed (close 4008). */
  socketSendBufferSoftBytes: number;
  /** A socket whose unsent bytes exceed this is shed at once. */
  socketSendBufferHardBytes: number;
  socketSlowGraceMs: number;
  /** Frames per second a client may send on its socket (burst twice that). */
  socketInboundPerSecond: number;
  /** How often each node checks for ended tracks and due auto starts. */
  timelineTickMs: number;
  /** Events retained per party for `resume`. */
  retainEvents: number;
  /** A `resume` missing more events (or bytes) than this gets `resync` instead of a replay. */
  resumeMaxEvents: number;
  resumeMaxBytes: number;
  /** A socket replays at most once in this window; further resumes in it are refused (rate_limited). */
  resumeWindowMs: number;
  /** Pending connections each listener's kernel queue holds (reconnect storms after a restart). */
  listenBacklog: number;
}

export interface SpotifyConfig {
  clientId: string;
  clientSecret: string;
  accountsUrl: string;
  apiUrl: string;
}

export interface AppleConfig {
  developerToken: string;
  apiUrl: string;
}

/** Ours: uploads one fan may make per minute (profile pictures and chat media together). */
export const UPLOADS_PER_FAN_PER_MINUTE = 20;

const Port = z.coerce.number().int().min(0).max(65535);
const Bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** Providers with a built-in emulator, as EMULATORS names them. */
const EMULATED_PROVIDERS = ['spotify', 'apple'] as const;

const Env = z.object({
  NODE_ENV: z.string().optional(),
  HOST: z.string().default('127.0.0.1'),
  PORT: Port.default(8080),
  SOCKET_PORT: Port.optional(),
  CMS_PORT: Port.default(1337),
  PUBLIC_URL: z.url().optional(),
  CMS_PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  REDIS_KEY_PREFIX: z.string().default('fanfare:'),
  SOCKET_BATCH_MS: z.coerce.number().int().min(0).max(1000).default(50),
  // The spec's chat batch window: the party app shows chat no more often than this anyway.
  SOCKET_BUSY_BATCH_MS: z.coerce.number().int().min(0).max(1000).default(CHAT_BATCH_WINDOW_MS),
  // 5,000 fans back after a crash: a frame a second to those already back leaves the node's time
  // to letting the others in (bench/README.md, storm); playback events carry their server time.
  // Only the sockets that came with the storm get it (decision 0054).
  SOCKET_STORM_BATCH_MS: z.coerce.number().int().min(0).max(1000).default(1000),
  SOCKET_STORM_JOINS_PER_SECOND: z.coerce.number().int().min(1).max(1_000_000).default(200),
  // 30-50 ms of socket writes per turn on the bench machine; 5,000 (two chunks at 10,000 fans)
  // let the fan-out bench's chat posts back up again.
  SOCKET_SWEEP_CHUNK: z.coerce.number().int().min(1).max(1_000_000).default(2_000),
  // Decision 0018: while a request is under way a turn of writes ends after this long, so a chat
  // post's database round trips (several per post on PostgreSQL) each wait milliseconds, not a chunk.
  SOCKET_SWEEP_BUDGET_MS: z.coerce.number().min(0).max(1000).default(5),
  // Decision 0024: `false` sends every frame through `socket.write` (the fan-out bench's before).
  SOCKET_HEARTBEAT_MS: z.coerce.number().int().min(50).default(20_000),
  // Default: 1,000 a second on a cluster (REDIS_URL), where other nodes take the fans; a single
  // node has nowhere to send them, so it closes them at once and restarts sooner.
  SOCKET_DRAIN_PER_SECOND: z.coerce.number().int().min(0).max(1_000_000).optional(),
  SOCKET_SEND_BUFFER_SOFT_BYTES: z.coerce.number().int().positive().default(256 * 1024),
  SOCKET_SEND_BUFFER_HARD_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  SOCKET_SLOW_GRACE_MS: z.coerce.number().int().min(0).default(5_000),
  SOCKET_INBOUND_PER_SECOND: z.coerce.number().int().positive().default(20),
  TIMELINE_TICK_MS: z.coerce.number().int().min(10).default(250),
  PARTY_EVENT_RETAIN: z.coerce.number().int().min(100).default(50_000),
  SOCKET_RESUME_MAX_EVENTS: z.coerce.number().int().positive().default(5_000),
  SOCKET_RESUME_MAX_BYTES: z.coerce.number().int().positive().default(4 * 1024 * 1024),
  SOCKET_RESUME_WINDOW_MS: z.coerce.number().int().min(0).default(10_000),
  LISTEN_BACKLOG: z.coerce.number().int().min(16).max(65_535).default(4_096),
  ALLOWED_REDIRECT_ORIGINS: z.string().optional(),
  CMS_ADMIN_TOKEN: z.string().min(16, 'CMS_ADMIN_TOKEN must have at least 16 characters').optional(),
  SESSION_SECRET: z.string().min(16).optional(),
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must have at least 16 characters').optional(),
  TRUST_PROXY: z.string().optional(),
  ACCESS_TOKEN_TTL_HOURS: z.coerce.number().positive().default(24 * 30),
  SPOTIFY_CLIENT_ID: z.string().optional(),
  SPOTIFY_CLIENT_SECRET: z.string().optional(),
  SPOTIFY_ACCOUNTS_URL: z.url().optional(),
  SPOTIFY_API_URL: z.url().optional(),
  APPLE_DEVELOPER_TOKEN: z.string().optional(),
  APPLE_API_URL: z.url().optional(),
  DEMO_SEED: Bool.optional(),
  EMULATORS: z
    .string()
    .transform((v) => v.split(',').map((n) => n.trim()).filter(Boolean))
    .pipe(z.array(z.enum(EMULATED_PROVIDERS, { error: 'EMULATORS names spotify and/or apple, comma-separated' })))
    .optional(),
  DEMO_START_DELAY_SECONDS: z.coerce.number().min(0).default(300),
  LEGAL_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(5 * 1024 * 1024),
  REPLAY_DOCUMENT_MAX_BYTES: z.coerce.number().int().min(16 * 1024).max(64 * 1024 * 1024).default(2 * 1024 * 1024),
  SOURCE_SAMPLE_SECONDS: z.coerce.number().min(0.05).max(3600).default(30),
  RETENTION_UNCONFIRMED_NEWSLETTER_DAYS: z.coerce.number().positive().max(3650).default(30),
  RETENTION_UNUSED_UPLOAD_HOURS: z.coerce.number().positive().max(87600).default(24),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().default('Fanfare <no-reply@fanfare.local>'),
  LABEL_NAME: z.string().trim().min(1).max(100).optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(12, 'ADMIN_PASSWORD must have at least 12 characters').optional(),
  CMS_SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
  CMS_LOCK_TTL_SECONDS: z.coerce.number().int().positive().default(300),
  CMS_LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  ANON_SIGNUP_RATE_LIMIT: z.coerce.number().int().positive().default(20),
  APPLE_LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(30),
  MAX_SOCKETS_PER_FAN: z.coerce.number().int().positive().default(5),
  UPLOAD_QUOTA_PER_FAN_BYTES: z.coerce.number().int().positive().default(50 * 1024 * 1024),
  UPLOAD_QUOTA_PER_PARTY_BYTES: z.coerce.number().int().positive().default(2 * 1024 * 1024 * 1024),
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  PREVIEW_CACHE_MAX_MB: z.coerce.number().positive().default(200),
  CAMPAIGN_ENVIRONMENT: z
    .enum(['staging', 'production', 'live', 'prod', 'local'])
    .default('local')
    .transform((v) => (v === 'live' || v === 'prod' ? 'production' : v)),
  GEO_COUNTRY_HEADER: z.string().default('cf-ipcountry'),
  GEO_DEFAULT_COUNTRY: z.string().regex(/^[A-Za-z]{2}$/).default('DE'),
  GEO_DEFAULT_LANGUAGE: z.string().regex(/^[a-z]{2}$/).default('de'),
  TOKEN_GATE_KEY_TTL_DAYS: z.coerce.number().positive().default(30),
  CAMPAIGN_ACCESS_TOKEN_TTL_MINUTES: z.coerce.number().positive().default(60),
  CAMPAIGN_REFRESH_TOKEN_TTL_DAYS: z.coerce.number().positive().default(30),
  NEWSLETTER_CONFIRM_TTL_HOURS: z.coerce.number().positive().default(72),
  HANDOVER_TTL_MINUTES: z.coerce.number().positive().max(60).default(15),
}).superRefine((e, ctx) => {
  // Two listeners of one node on one port would fail at start-up with a bare EADDRINUSE. 0 (any
  // free port) never clashes; PORT and CMS_PORT may match when a node runs one surface (`--only`).
  if (!e.SOCKET_PORT) return;
  const other = e.SOCKET_PORT === e.PORT ? 'PORT' : e.SOCKET_PORT === e.CMS_PORT ? 'CMS_PORT' : null;
  if (other) ctx.addIssue({ code: 'custom', path: ['SOCKET_PORT'], message: `${e.SOCKET_PORT} is ${other} too; the party sockets' listener needs a port of its own (or leave SOCKET_PORT unset)` });
});

/** Emulator client credentials: public on purpose, they only open the built-in emulators. */
export const EMULATOR_CLIENT = { id: 'fanfare-emulator', secret: 'fanfare-emulator-secret' } as const;
export const EMULATOR_APPLE_DEVELOPER_TOKEN = 'fanfare-emulator-developer-token';

/** Reads the configuration; throws an error naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset, as in most .env conventions.
  const parsed = Env.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  // npm runs workspace scripts inside the workspace; a relative DATA_DIR means the directory the
  // user started from (npm's INIT_CWD), so `npm start` at the root keeps its data in ./data there.
  const dataDir = path.resolve(env.INIT_CWD ?? process.cwd(), e.DATA_DIR);
  const publicUrl = baseUrl(e.PUBLIC_URL ?? `http://${displayHost(e.HOST)}:${e.PORT}`);
  const cmsPublicUrl = baseUrl(e.CMS_PUBLIC_URL ?? `http://${displayHost(e.HOST)}:${e.CMS_PORT}`);
  const named = new Set(e.EMULATORS ?? []);
  // Outside production a provider without credentials is emulated; in production only by name.
  const spotifyEmulated = !(e.SPOTIFY_CLIENT_ID && e.SPOTIFY_CLIENT_SECRET) && (!production || named.has('spotify'));
  const appleEmulated = !e.APPLE_DEVELOPER_TOKEN && (!production || named.has('apple'));
  const extraOrigins = (e.ALLOWED_REDIRECT_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  // The surfaces' own origins always belong (the back office calls the party API and frames the
  // party app; the party app calls the CMS): an extra list adds to them, never replaces them.
  const origins = [...new Set([new URL(publicUrl).origin, new URL(cmsPublicUrl).origin, ...extraOrigins.map(originOf)])];
  if (production) {
    const refusals = productionRefusals(e, { publicUrl, cmsPublicUrl, extraOrigins });
    if (refusals.length > 0) throw new Error(`Refusing to start with NODE_ENV=production:\n  ${refusals.join('\n  ')}`);
  }
  return {
    production,
    host: e.HOST,
    partyPort: e.PORT,
    socketPort: e.SOCKET_PORT ?? null,
    cmsPort: e.CMS_PORT,
    publicUrl,
    cmsPublicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'fanfare.sqlite')}`,
    redisUrl: e.REDIS_URL ?? null,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    live: {
      socketBatchMs: e.SOCKET_BATCH_MS,
      socketBusyBatchMs: e.SOCKET_BUSY_BATCH_MS,
      socketStormBatchMs: e.SOCKET_STORM_BATCH_MS,
      socketStormJoinsPerSecond: e.SOCKET_STORM_JOINS_PER_SECOND,
      socketSweepChunk: e.SOCKET_SWEEP_CHUNK,
      socketSweepBudgetMs: e.SOCKET_SWEEP_BUDGET_MS,
      socketHeartbeatMs: e.SOCKET_HEARTBEAT_MS,
      socketDrainPerSecond: e.SOCKET_DRAIN_PER_SECOND ?? (e.REDIS_URL ? 1_000 : 0),
      socketSendBufferSoftBytes: e.SOCKET_SEND_BUFFER_SOFT_BYTES,
      socketSendBufferHardBytes: Math.max(e.SOCKET_SEND_BUFFER_HARD_BYTES, e.SOCKET_SEND_BUFFER_SOFT_BYTES),
      socketSlowGraceMs: e.SOCKET_SLOW_GRACE_MS,
      socketInboundPerSecond: e.SOCKET_INBOUND_PER_SECOND,
      timelineTickMs: e.TIMELINE_TICK_MS,
      retainEvents: e.PARTY_EVENT_RETAIN,
      resumeMaxEvents: e.SOCKET_RESUME_MAX_EVENTS,
      resumeMaxBytes: e.SOCKET_RESUME_MAX_BYTES,
      resumeWindowMs: e.SOCKET_RESUME_WINDOW_MS,
      listenBacklog: e.LISTEN_BACKLOG,
    },
    allowedRedirectOrigins: origins,
    cmsAdminToken: e.CMS_ADMIN_TOKEN ?? null,
    metricsToken: e.METRICS_TOKEN ?? null,
    trustProxy: e.TRUST_PROXY ?? null,
    sessionSecret: e.SESSION_SECRET ?? randomSecret(),
    accessTokenTtlMs: e.ACCESS_TOKEN_TTL_HOURS * 3600_000,
    spotify: {
      clientId: spotifyEmulated ? EMULATOR_CLIENT.id : e.SPOTIFY_CLIENT_ID!,
      clientSecret: spotifyEmulated ? EMULATOR_CLIENT.secret : e.SPOTIFY_CLIENT_SECRET!,
      accountsUrl: trimSlash(
        e.SPOTIFY_ACCOUNTS_URL ??
          (spotifyEmulated ? `${publicUrl}/emulator/spotify/accounts` : 'https://accounts.spotify.com'),
      ),
      apiUrl: trimSlash(
        e.SPOTIFY_API_URL ?? (spotifyEmulated ? `${publicUrl}/emulator/spotify/api/v1` : 'https://api.spotify.com/v1'),
      ),
    },
    apple: {
      developerToken: e.APPLE_DEVELOPER_TOKEN ?? EMULATOR_APPLE_DEVELOPER_TOKEN,
      apiUrl: trimSlash(
        e.APPLE_API_URL ?? (appleEmulated ? `${publicUrl}/emulator/apple/v1` : 'https://api.music.apple.com/v1'),
      ),
    },
    emulators: { spotify: spotifyEmulated, apple: appleEmulated },
    emulatorRoutes: { spotify: spotifyEmulated || (!production && named.has('spotify')), apple: appleEmulated || (!production && named.has('apple')) },
    demo: { seed: e.DEMO_SEED ?? !production, startDelayMs: e.DEMO_START_DELAY_SECONDS * 1000 },
    legalDir: e.LEGAL_DIR ?? null,
    logLevel: e.LOG_LEVEL,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    replay: { documentMaxBytes: e.REPLAY_DOCUMENT_MAX_BYTES },
    sourceSampleMs: Math.round(e.SOURCE_SAMPLE_SECONDS * 1000),
    retention: {
      unconfirmedNewsletterMs: e.RETENTION_UNCONFIRMED_NEWSLETTER_DAYS * 86_400_000,
      unusedUploadMs: e.RETENTION_UNUSED_UPLOAD_HOURS * 3_600_000,
    },
    dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    abuse: {
      /** Anonymous signups one client address may make per 10 minutes. */
      anonSignupsPer10Min: e.ANON_SIGNUP_RATE_LIMIT,
      /** Apple logins one client address may make per minute (party and campaign). */
      appleLoginsPerMinute: e.APPLE_LOGIN_RATE_LIMIT,
      uploadsPerFanPerMinute: UPLOADS_PER_FAN_PER_MINUTE,
      /** Open party sockets one fan may hold at once. */
      maxSocketsPerFan: e.MAX_SOCKETS_PER_FAN,
      /** Bytes one fan may keep uploaded in one party, and all fans of a party together. */
      uploadQuotaPerFanBytes: e.UPLOAD_QUOTA_PER_FAN_BYTES,
      uploadQuotaPerPartyBytes: e.UPLOAD_QUOTA_PER_PARTY_BYTES,
    },
    mail: { smtpUrl: e.SMTP_URL ?? null, from: e.MAIL_FROM, labelName: e.LABEL_NAME ?? null },
    cms: {
      adminEmail: e.ADMIN_EMAIL ?? null,
      adminPassword: e.ADMIN_PASSWORD ?? null,
      sessionTtlMs: e.CMS_SESSION_TTL_HOURS * 3600_000,
      lockTtlMs: e.CMS_LOCK_TTL_SECONDS * 1000,
      loginRateLimit: e.CMS_LOGIN_RATE_LIMIT,
      environment: e.CAMPAIGN_ENVIRONMENT,
      geoCountryHeader: e.GEO_COUNTRY_HEADER.toLowerCase(),
      geoDefaultCountry: e.GEO_DEFAULT_COUNTRY.toUpperCase(),
      geoDefaultLanguage: e.GEO_DEFAULT_LANGUAGE,
      tokenGateKeyTtlMs: e.TOKEN_GATE_KEY_TTL_DAYS * 86_400_000,
      accountAccessTtlMs: e.CAMPAIGN_ACCESS_TOKEN_TTL_MINUTES * 60_000,
      accountRefreshTtlMs: e.CAMPAIGN_REFRESH_TOKEN_TTL_DAYS * 86_400_000,
      newsletterConfirmTtlMs: e.NEWSLETTER_CONFIRM_TTL_HOURS * 3600_000,
      handoverTtlMs: e.HANDOVER_TTL_MINUTES * 60_000,
    },
    previews: { ffmpegPath: e.FFMPEG_PATH, cacheMaxBytes: Math.round(e.PREVIEW_CACHE_MAX_MB * 1024 * 1024) },
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** A public URL as the pages and links carry it: origin and path, no trailing slash (`:443` and upper case dropped). */
function baseUrl(value: string): string {
  const url = new URL(value);
  return trimSlash(`${url.origin}${url.pathname}`);
}

/** The origin of an ALLOWED_REDIRECT_ORIGINS entry, or the entry itself when it is not a URL (it then matches nothing). */
function originOf(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return trimSlash(value);
  }
}

/**
 * A URL browsers may treat as a secure context: https, or a loopback host (reached from this
 * machine only, so nothing crosses a network in clear).
 */
function isSecureUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(url.hostname));
  } catch {
    return false;
  }
}

/**
 * What production (NODE_ENV=production) will not run with, each naming what to set. Guards
 * against a deployment that works by accident: OAuth state signed with a per-process key (logins
 * fail across nodes and restarts), tokens and passwords sent in clear, a provider silently
 * answered by the built-in emulator. The first admin's password is checked at start-up
 * (`ensureFirstAdmin`), where the database says whether this is the first start.
 */
function productionRefusals(e: z.infer<typeof Env>, urls: { publicUrl: string; cmsPublicUrl: string; extraOrigins: string[] }): string[] {
  const refusals: string[] = [];
  if (!e.SESSION_SECRET) refusals.push('SESSION_SECRET is not set: set it to a random string of at least 16 characters, the same on every node.');
  for (const [name, given, value] of [
    ['PUBLIC_URL', e.PUBLIC_URL, urls.publicUrl],
    ['CMS_PUBLIC_URL', e.CMS_PUBLIC_URL, urls.cmsPublicUrl],
  ] as const) {
    if (!given) refusals.push(`${name} is not set: set it to the https:// address the public reaches this surface at.`);
    else if (!isSecureUrl(value)) refusals.push(`${name} is ${value}: set it to an https:// address (plain http only on a loopback host).`);
  }
  const insecure = urls.extraOrigins.filter((o) => !isSecureUrl(o));
  if (insecure.length > 0) refusals.push(`ALLOWED_REDIRECT_ORIGINS has ${insecure.join(', ')}: list https:// origins only.`);
  const named = new Set(e.EMULATORS ?? []);
  if (!(e.SPOTIFY_CLIENT_ID && e.SPOTIFY_CLIENT_SECRET) && !named.has('spotify')) {
    refusals.push('Spotify has no credentials: set SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET, or EMULATORS=spotify to run the built-in emulator.');
  }
  if (!e.APPLE_DEVELOPER_TOKEN && !named.has('apple')) {
    refusals.push('Apple Music has no developer token: set APPLE_DEVELOPER_TOKEN, or EMULATORS=apple to run the built-in emulator.');
  }
  return refusals;
}

function displayHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? 'localhost' : host;
}

function randomSecret(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
}
