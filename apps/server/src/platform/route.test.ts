/**
 * What an entry declares beyond `auth` is enforced or the route is not registered: a listener
 * that cannot check an entry's ability or rate limit refuses it at start, never serves it open.
 */
import { CMS_ROUTES, PARTY_ROUTES } from '@fanfare/protocol';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { App } from './http.ts';
import { routeWith } from './route.ts';

describe("route registration: an entry's ability and rate limit", () => {
  const app = Fastify() as unknown as App;
  afterAll(() => app.close());
  const pass = async () => null;

  it('an entry with an ability is refused by a listener without an ability check', () => {
    const route = routeWith({ cms_or_bearer: pass });
    expect(() => route(app, PARTY_ROUTES.startParty, async () => ({}) as never)).toThrow(/declares an ability/);
  });

  it('an entry with a rate limit is refused by a listener that does not enforce it', () => {
    const route = routeWith({ none: pass });
    expect(() => route(app, CMS_ROUTES.accountAppleLogin, async () => ({}) as never)).toThrow(/rate limit "appleLogin"/);
  });
});
