/**
 * Campaign configuration (spec §2, §5, §7): the campaign JSON and environment the CMS writes as
 * page metadata, and the backend origin the page calls.
 */
import {
  CAMPAIGN_ENVIRONMENT_ALIASES,
  CAMPAIGN_META,
  CAMPAIGN_PREVIEW_PARAM,
  CMS_LOCAL_PORT,
  isAllowedBridgeOrigin as isAllowedOrigin,
  type Campaign,
  type CampaignEnvironment,
} from '@fanfare/protocol';
import type { PageEnv } from './env.ts';
import { SDK_ERRORS } from './errors.ts';

/**
 * Backend origins of the environments, as configured. What is not configured takes the spec's
 * default (`defaultBackendOrigins`): local is port 1337 of localhost; staging and production, whose
 * hosts the spec does not name, are the page's own origin (the CMS serves its pages).
 */
export interface BackendOrigins {
  production?: string;
  staging?: string;
  local?: string;
}

export interface CampaignConfig {
  campaign: Campaign;
  environment: CampaignEnvironment;
  /** Origin every backend call goes to. */
  backendOrigin: string;
  /** Origins the editor bridge accepts frames from (live, staging, local backends). */
  allowedOrigins: string[];
  /** True inside the editor frame or pop-up. */
  isEmbedded: boolean;
  /** The preview link's token the page was opened with (the editor's preview of a draft), else null. */
  previewToken: string | null;
}

/** Spec §5: staging, production (also live, prod) or local, else 'Invalid environment'. */
export function parseEnvironment(value: string | null): CampaignEnvironment {
  const env = value ? CAMPAIGN_ENVIRONMENT_ALIASES[value.trim().toLowerCase()] : undefined;
  if (!env) throw new Error(SDK_ERRORS.invalidEnvironment);
  return env;
}

/** The default backend origin of each environment (spec §7: local on port 1337). */
export function defaultBackendOrigins(pageUrl: string, overrides: BackendOrigins = {}): Required<BackendOrigins> {
  const page = new URL(pageUrl);
  return {
    production: overrides.production ?? page.origin,
    staging: overrides.staging ?? page.origin,
    local: overrides.local ?? `${page.protocol === 'https:' ? 'https' : 'http'}://localhost:${CMS_LOCAL_PORT}`,
  };
}

/**
 * The fields the runtime reads. The CMS wrote this JSON from a stored, schema-checked campaign;
 * the page checks only its shape (the schemas, with zod, would triple the page's script).
 */
function isCampaignShape(v: unknown): v is Campaign {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  const gate = c.token_gate as Record<string, unknown> | null;
  return (
    typeof c.id === 'string' &&
    typeof c.app === 'string' &&
    Array.isArray(c.newsletters) &&
    Array.isArray(c.enabled_services) &&
    typeof gate === 'object' &&
    gate !== null &&
    typeof gate.enabled === 'boolean' &&
    (c.starts_at === null || typeof c.starts_at === 'string') &&
    (c.ends_at === null || typeof c.ends_at === 'string')
  );
}

/**
 * The origin of a configured backend address (`fanfare:backend-origin`), or null when there is
 * none or it is not an http(s) address: then the environment's default applies.
 */
export function configuredBackendOrigin(value: string | null): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
}

/**
 * Reads and checks the page metadata. Throws the spec's messages on missing or bad metadata.
 * Backend origins: the caller's `overrides` first, then the origin the server wrote for the
 * page's own environment, then the environment's default (spec §7).
 */
export function readCampaignConfig(env: PageEnv, overrides: BackendOrigins = {}): CampaignConfig {
  const id = env.meta(CAMPAIGN_META.campaignId);
  const json = env.meta(CAMPAIGN_META.campaign);
  if (!id || !json) throw new Error(SDK_ERRORS.campaignIdMissing);
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error(SDK_ERRORS.campaignIdMissing);
  }
  if (!isCampaignShape(raw) || raw.id !== id) throw new Error(SDK_ERRORS.campaignIdMissing);
  const environment = parseEnvironment(env.meta(CAMPAIGN_META.environment));
  const served = configuredBackendOrigin(env.meta(CAMPAIGN_META.backendOrigin));
  return configFor(env, raw, environment, served ? { [environment]: served, ...overrides } : overrides);
}

/** The `preview` token of the page's address (a preview link), or null. */
export function previewTokenOf(pageUrl: string): string | null {
  const token = new URL(pageUrl).searchParams.get(CAMPAIGN_PREVIEW_PARAM);
  return token ? token : null;
}

/** Builds the config of a known campaign (also used when the editor sends an unsaved one). */
export function configFor(env: PageEnv, campaign: Campaign, environment: CampaignEnvironment, overrides: BackendOrigins = {}): CampaignConfig {
  const origins = defaultBackendOrigins(env.location.href, overrides);
  const allowedOrigins = [...new Set([origins.production, origins.staging, origins.local])];
  const isEmbedded = env.messaging.parent !== null;
  const parentOrigin = env.messaging.parentOrigin;
  // Inside the editor the parent is the backend, but only an allowed parent may choose where our calls (and tokens) go.
  const parentIsBackend = isEmbedded && parentOrigin !== null && isAllowedOrigin(parentOrigin, allowedOrigins, new URL(env.location.href).origin);
  return {
    campaign,
    environment,
    backendOrigin: parentIsBackend ? parentOrigin : origins[environment],
    allowedOrigins,
    isEmbedded,
    previewToken: previewTokenOf(env.location.href),
  };
}
