import staticFiles from '@fastify/static';
import type { FastifyReply } from 'fastify';
import type { App } from './http.ts';

/** Adds a field to the reply's `Vary` header, keeping those already named (e.g. CORS's Origin). */
export function addVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  const fields = (Array.isArray(current) ? current.join(',') : String(current ?? '')).split(',').map((f) => f.trim()).filter(Boolean);
  if (fields.includes('*') || fields.some((f) => f.toLowerCase() === field.toLowerCase())) return;
  reply.header('vary', [...fields, field].join(', '));
}

/**
 * Serves a web app's content-hashed build assets: cached for good, and sent pre-compressed (`.br`,
 * `.gz` written by the build) to browsers that accept it. The same URL answers br, gzip or plain,
 * so shared caches must key on Accept-Encoding: added to what is there (CORS varies on Origin), in
 * a scope of its own around the assets.
 */
export async function registerHashedAssets(app: App, root: string, prefix: string): Promise<void> {
  await app.register(async (assets) => {
    assets.addHook('onSend', async (_req, reply, payload) => {
      addVary(reply, 'Accept-Encoding');
      return payload;
    });
    await assets.register(staticFiles, { root, prefix, decorateReply: false, immutable: true, maxAge: '365d', preCompressed: true });
  });
}
