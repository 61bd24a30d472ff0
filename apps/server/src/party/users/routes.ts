import {
  PartyIdParam,
  PartyUserResponse,
  ServiceTokenResponse,
  SignupBody,
  SignupResponse,
  SystemUserResponse,
} from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { fanForToken } from '../auth/sessions.ts';
import { bearerToken, requireFan } from '../auth/guards.ts';
import { unauthorized } from '../../platform/errors.ts';
import { partyProfile, serviceToken, signUp, systemProfile } from './service.ts';

export async function registerUserRoutes(app: App, ctx: ServerContext): Promise<void> {
  app.post(
    '/api/parties/:id/users',
    { schema: { tags: ['users'], params: PartyIdParam, body: SignupBody, response: { 200: SignupResponse } } },
    async (req) => {
      // Bearer is optional here: parties without login_required accept anonymous signups.
      const token = bearerToken(req);
      const fan = token ? await fanForToken(ctx.db, token, ctx.now()) : null;
      if (token && !fan) throw unauthorized('Invalid or expired access token');
      return signUp(ctx, req.params.id, fan, req.body);
    },
  );

  app.get(
    '/api/parties/:id/users/me',
    { schema: { tags: ['users'], params: PartyIdParam, response: { 200: PartyUserResponse } } },
    async (req) => partyProfile(ctx, req.params.id, await requireFan(ctx, req)),
  );

  app.get('/api/users/me', { schema: { tags: ['users'], response: { 200: SystemUserResponse } } }, async (req) =>
    systemProfile(ctx, await requireFan(ctx, req)),
  );

  app.get('/api/users/me/service_token', { schema: { tags: ['users'], response: { 200: ServiceTokenResponse } } }, async (req) =>
    serviceToken(ctx, await requireFan(ctx, req)),
  );
}
