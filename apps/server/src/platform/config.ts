import path from 'node:path';
import { z } from 'zod';

/**
 * Every setting of the server program, read once from the environment.
 * The README documents each variable; defaults are the embedded set-up (SQLite, in-process pub/sub,
 * built-in provider emulators), so `npm start` works on a fresh machine with nothing configured.
 */
export interface Config {
  host: string;
  partyPort: number;
  cmsPort: number;
  /** Public base URL of the party API (what browsers and providers are sent to). */
  publicUrl: string;
  /** Public base URL of the CMS API. */
  cmsPublicUrl: string;
  dataDir: string;
  /** `sqlite:<file>` or `postgres://...` */
  databaseUrl: string;
  redisUrl: string | null;
  /** Origins a login may redirect back to (party web app origins). */
  allowedRedirectOrigins: string[];
  /** Static admin token for party admin calls until CMS users exist; null means no such token. */
  cmsAdminToken: string | null;
  /** Key that signs OAuth state values. Random per process when unset. */
  sessionSecret: string;
  /** Lifetime of a fan's access token. */
  accessTokenTtlMs: number;
  spotify: SpotifyConfig;
  apple: AppleConfig;
  /** True when a provider has no real credentials and the built-in emulators answer instead. */
  emulators: { spotify: boolean; apple: boolean };
  demo: { seed: boolean; startDelayMs: number };
  logLevel: string;
  uploadMaxBytes: number;
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

const Port = z.coerce.number().int().min(0).max(65535);
const Bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const Env = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: Port.default(8080),
  CMS_PORT: Port.default(1337),
  PUBLIC_URL: z.url().optional(),
  CMS_PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  ALLOWED_REDIRECT_ORIGINS: z.string().optional(),
  CMS_ADMIN_TOKEN: z.string().min(16, 'CMS_ADMIN_TOKEN must have at least 16 characters').optional(),
  SESSION_SECRET: z.string().min(16).optional(),
  ACCESS_TOKEN_TTL_HOURS: z.coerce.number().positive().default(24 * 30),
  SPOTIFY_CLIENT_ID: z.string().optional(),
  SPOTIFY_CLIENT_SECRET: z.string().optional(),
  SPOTIFY_ACCOUNTS_URL: z.url().optional(),
  SPOTIFY_API_URL: z.url().optional(),
  APPLE_DEVELOPER_TOKEN: z.string().optional(),
  APPLE_API_URL: z.url().optional(),
  DEMO_SEED: Bool.default(true),
  DEMO_START_DELAY_SECONDS: z.coerce.number().min(0).default(300),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(5 * 1024 * 1024),
});

/** Emulator client credentials: public on purpose, they only open the built-in emulators. */
export const EMULATOR_CLIENT = { id: 'fanfare-emulator', secret: 'fanfare-emulator-secret' } as const;
export const EMULATOR_APPLE_DEVELOPER_TOKEN = 'fanfare-emulator-developer-token';

/** Reads the configuration; throws an error naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = trimSlash(e.PUBLIC_URL ?? `http://${displayHost(e.HOST)}:${e.PORT}`);
  const cmsPublicUrl = trimSlash(e.CMS_PUBLIC_URL ?? `http://${displayHost(e.HOST)}:${e.CMS_PORT}`);
  const spotifyEmulated = !(e.SPOTIFY_CLIENT_ID && e.SPOTIFY_CLIENT_SECRET);
  const appleEmulated = !e.APPLE_DEVELOPER_TOKEN;
  const origins = e.ALLOWED_REDIRECT_ORIGINS
    ? e.ALLOWED_REDIRECT_ORIGINS.split(',').map((o) => trimSlash(o.trim())).filter(Boolean)
    : [new URL(publicUrl).origin, new URL(cmsPublicUrl).origin];
  return {
    host: e.HOST,
    partyPort: e.PORT,
    cmsPort: e.CMS_PORT,
    publicUrl,
    cmsPublicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'fanfare.sqlite')}`,
    redisUrl: e.REDIS_URL ?? null,
    allowedRedirectOrigins: origins,
    cmsAdminToken: e.CMS_ADMIN_TOKEN ?? null,
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
    demo: { seed: e.DEMO_SEED, startDelayMs: e.DEMO_START_DELAY_SECONDS * 1000 },
    logLevel: e.LOG_LEVEL,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function displayHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? 'localhost' : host;
}

function randomSecret(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
}
