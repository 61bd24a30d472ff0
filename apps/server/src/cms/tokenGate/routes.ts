import {
  CmsIdParam,
  TOKEN_GATE_ACCESS_KEY_HEADER,
  TokenGateCheckBody,
  TokenGateCodesQuery,
  TokenGateCodesResponse,
  TokenGateKeyParams,
  TokenGateKeysResponse,
  TokenGateProductParam,
  TokenGateResult,
} from '@fanfare/protocol';
import { z } from 'zod';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { requireCmsUser } from '../users/guards.ts';
import { checkWithProvider, listAccessKeys, revokeAccessKey, uploadAccessCodes, verifyAccess } from './service.ts';

const tags = ['token gate'];

export async function registerTokenGateRoutes(app: App, ctx: ServerContext): Promise<void> {
  app.post(
    '/api/campaigns/:id/token_gate/provider_check',
    {
      // Slows guessing of access codes: per client address and campaign.
      config: { rateLimit: { max: 10, timeWindow: 60_000, keyGenerator: (req) => `${req.ip}|${(req.params as { id?: string }).id ?? ''}` } },
      schema: { tags, summary: 'Checks credentials with the token-gate provider; issues an access key', params: CmsIdParam, body: TokenGateCheckBody, response: { 200: TokenGateResult } },
    },
    async (req) => checkWithProvider(ctx, req.params.id, req.body.credentials),
  );

  app.get(
    '/api/campaigns/:id/token_gate/verify_access',
    { schema: { tags, summary: `Answers has_access for the key in header ${TOKEN_GATE_ACCESS_KEY_HEADER}`, params: CmsIdParam, response: { 200: TokenGateResult } } },
    async (req, reply) => {
      const key = req.headers[TOKEN_GATE_ACCESS_KEY_HEADER];
      void reply.header('cache-control', 'private, no-store');
      return verifyAccess(ctx, req.params.id, typeof key === 'string' && key !== '' ? key : null);
    },
  );

  app.post(
    '/api/token_gate/products/:product_id/codes',
    {
      schema: {
        tags,
        summary: 'Uploads access codes (text/csv: code[,max_uses] per line)',
        consumes: ['text/csv', 'text/plain'],
        params: TokenGateProductParam,
        querystring: TokenGateCodesQuery,
        body: z.string(),
        response: { 200: TokenGateCodesResponse },
      },
    },
    async (req) => {
      await requireCmsUser(ctx, req, 'tokenGate.manage');
      return uploadAccessCodes(ctx, req.params.product_id, req.body, req.query.max_uses);
    },
  );

  app.get('/api/campaigns/:id/token_gate/keys', { schema: { tags, params: CmsIdParam, response: { 200: TokenGateKeysResponse } } }, async (req) => {
    await requireCmsUser(ctx, req, 'tokenGate.manage');
    return { items: await listAccessKeys(ctx, req.params.id) };
  });

  app.delete('/api/campaigns/:id/token_gate/keys/:key_id', { schema: { tags, params: TokenGateKeyParams } }, async (req, reply) => {
    await requireCmsUser(ctx, req, 'tokenGate.manage');
    await revokeAccessKey(ctx, req.params.id, req.params.key_id);
    return reply.status(204).send();
  });
}
