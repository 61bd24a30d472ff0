/**
 * Every party call a fan can make names the ability it needs on its table entry, so a new route
 * cannot forget the party policy: the server refuses a caller without it before the handler runs.
 */
import { describe, expect, it } from 'vitest';
import type { RouteAuth, RouteDef } from '../routeDef.ts';
import { PARTY_ABILITIES } from './abilities.ts';
import { PARTY_ROUTES, type PartyRouteName } from './routes.ts';

/** The `auth` kinds a fan's bearer passes. */
const FAN_KINDS: readonly RouteAuth[] = ['bearer', 'bearer_optional', 'bearer_host', 'cms_or_bearer'];

/** Fan calls without an ability, each with the reason. */
const OPEN_ON_PURPOSE: Partial<Record<PartyRouteName, string>> = {
  signup: 'signing up is how a fan joins a party (the service checks login_required and grant links)',
  getPartyMe: "the caller's own profile in the party: 403 until signed up, from their signup row",
  deleteChatMessage: 'a fan deletes their own message, a host or admin any: the message row decides',
  getSystemMe: 'about the caller, in no party',
  getServiceToken: 'about the caller, in no party',
  getMyData: 'about the caller, in no party',
  deleteMe: 'about the caller, in no party',
  logout: 'about the caller, in no party',
};

const entries = Object.entries(PARTY_ROUTES as Record<string, RouteDef>) as [PartyRouteName, RouteDef][];

describe('party abilities on the route entries', () => {
  it('every party call open to fans declares its ability, or is listed as open on purpose', () => {
    const forgotten = entries.filter(([name, def]) => FAN_KINDS.includes(def.auth) && !def.ability && !OPEN_ON_PURPOSE[name]).map(([name]) => name);
    expect(forgotten).toEqual([]);
  });

  it('the open-on-purpose list names only fan calls without an ability', () => {
    for (const name of Object.keys(OPEN_ON_PURPOSE) as PartyRouteName[]) {
      const def: RouteDef = PARTY_ROUTES[name];
      expect(FAN_KINDS.includes(def.auth) && def.ability === undefined, name).toBe(true);
    }
  });

  it('an ability is held in the party of the path and by a known caller', () => {
    for (const [name, def] of entries.filter(([, d]) => d.ability)) {
      expect(def.path, name).toMatch(/^\/api\/parties\/:id(\/|$)/);
      expect(['none', 'bearer_optional'], name).not.toContain(def.auth);
      expect(PARTY_ABILITIES[def.ability!], name).toBeDefined();
    }
  });
});
