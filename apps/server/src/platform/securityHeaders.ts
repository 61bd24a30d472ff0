import { createRequire } from 'node:module';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyReply } from 'fastify';
import type { App } from './http.ts';

/**
 * helmet as @fastify/helmet runs it (its CommonJS build): the marker that leaves `default-src` out
 * is a symbol, and the ES module build's symbol is another one that helmet would not recognise.
 */
const { contentSecurityPolicy } = createRequire(import.meta.url)('helmet') as Pick<typeof fastifyHelmet.fastifyHelmet, 'contentSecurityPolicy'>;

/** A page's helmet options: the listener's (`registerSecurityHeaders`) with these over them. */
export type PageHeaders = NonNullable<Parameters<FastifyReply['helmet']>[0]>;

/** A year, helmet's default: browsers keep to https for this long after a page over https. */
const HSTS_MAX_AGE_S = 31_536_000;

/**
 * Registers helmet on a listener. Only pages opt in (`pageHeaders`): the JSON API answers, files
 * and streams keep their own headers. `publicUrl` is the listener's public base URL: HSTS is sent
 * only where it is https (a demo at http://localhost must not pin the browser to https).
 */
export async function registerSecurityHeaders(app: App, publicUrl: string | undefined): Promise<void> {
  await app.register(fastifyHelmet, {
    global: false,
    strictTransportSecurity: publicUrl && new URL(publicUrl).protocol === 'https:' ? { maxAge: HSTS_MAX_AGE_S, includeSubDomains: true } : false,
    // Login popups (Apple's MusicKit, the emulators) answer their opener across origins.
    crossOriginOpenerPolicy: false,
  });
}

type ReferrerPolicy = 'no-referrer' | 'same-origin' | 'strict-origin-when-cross-origin';

/**
 * A page's headers (helmet's set with who may frame it, usually `framingOrigins(config)`, and its
 * referrer policy), as a route's
 * `helmet` option or for `reply.helmet(...)`. The CSP is `frame-ancestors` alone: the pages load
 * scripts, styles and media from the configured origins, which a fuller policy would have to list.
 */
export function pageHeaders(framedBy: 'nobody' | readonly string[], referrerPolicy: ReferrerPolicy): PageHeaders {
  const ancestors = framedBy === 'nobody' ? ["'none'"] : ["'self'", ...framedBy];
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: contentSecurityPolicy.dangerouslyDisableDefaultSrc, frameAncestors: ancestors },
    },
    // Browsers that read X-Frame-Options but not frame-ancestors: DENY when nobody may frame; it
    // has no value for a list of origins, so none then (frame-ancestors decides).
    xFrameOptions: framedBy === 'nobody' ? { action: 'deny' } : false,
    referrerPolicy: { policy: referrerPolicy },
  };
}
