import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../routeDef.ts';
import { CMS_PERMISSIONS, cmsRolesCan } from './permissions.ts';
import { CMS_ROUTES } from './routes.ts';

const routes: [string, RouteDef][] = Object.entries(CMS_ROUTES);

describe('CMS route table', () => {
  it('every route has a unique method and path', () => {
    const keys = routes.map(([, r]) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("every route's params schema names exactly the path's :params (and * for a wildcard)", () => {
    for (const [name, r] of routes) {
      const fromPath = [...r.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
      if (r.path.endsWith('*')) fromPath.push('*');
      expect(Object.keys(r.params?.shape ?? {}).sort(), name).toEqual(fromPath.sort());
    }
  });

  it('names a permission only on back-office calls, and only permissions of the role matrix', () => {
    for (const [name, r] of routes) {
      if (r.permission) {
        expect(r.auth, name).toBe('cms');
        expect(Object.keys(CMS_PERMISSIONS), name).toContain(r.permission);
      }
    }
  });

  it('has exactly one way to answer: JSON, text, redirect or 204', () => {
    for (const [name, r] of routes) {
      const kinds = [r.response, r.textResponse, r.redirect].filter((k) => k !== undefined);
      expect(kinds.length, name).toBeLessThanOrEqual(1);
      if (r.multipart) expect(r.body, name).toBeUndefined();
      if (r.textBody) expect(r.body, name).toBeDefined();
    }
  });
});

describe('campaign spec §6: roles and permissions', () => {
  it('an admin may do everything', () => {
    for (const p of Object.keys(CMS_PERMISSIONS) as (keyof typeof CMS_PERMISSIONS)[]) expect(cmsRolesCan(['admin'], p), p).toBe(true);
  });
  it('an editor runs campaigns and uploads but manages neither users, apps nor personal data', () => {
    expect(cmsRolesCan(['editor'], 'campaigns.write')).toBe(true);
    expect(cmsRolesCan(['editor'], 'uploads.write')).toBe(true);
    expect(cmsRolesCan(['editor'], 'users.manage')).toBe(false);
    expect(cmsRolesCan(['editor'], 'apps.create')).toBe(false);
    expect(cmsRolesCan(['editor'], 'newsletter.export')).toBe(false);
    expect(cmsRolesCan(['editor'], 'campaigns.delete')).toBe(false);
  });
  it('no role grants nothing', () => {
    expect(cmsRolesCan([], 'campaigns.read')).toBe(false);
  });
});

/** The table's entry for a call of the spec, written as the spec writes it (`{param}`). */
function cmsRoute(method: string, specPath: string): RouteDef | undefined {
  const path = specPath.replace(/\{(\w+)\}/g, ':$1');
  return routes.map(([, r]) => r).find((r) => r.method === method && r.path === path);
}

describe('campaign spec §7: every call of the CMS API is in the route table', () => {
  it.each([
    'GET /api/apps',
    'POST /api/apps',
    'POST /api/apps/{id}/config/reload',
    'GET /api/users/me',
    'GET /api/users',
    'POST /api/users',
    'POST /api/users/{id}/roles',
    'POST /api/users/{id}/state',
    'PUT /api/users/password',
    'POST /api/users/password_reset',
    'GET /api/campaigns',
    'GET /api/campaigns/{id}',
    'POST /api/campaigns/{id}/patch',
    'POST /api/campaigns',
    'POST /api/campaigns/{id}/clone',
    'GET /api/campaigns/{app}/{slug}/exists',
    'DELETE /api/campaigns/{id}',
    'PUT /api/campaigns/{id}/lock',
    'DELETE /api/campaigns/{id}/lock',
    'GET /api/uploads',
    'POST /api/uploads',
    'DELETE /api/uploads/{id}',
    'GET /api/uploads/folders',
    'GET /api/spotify/tracks',
    'GET /api/campaigns/{id}/translations',
    'GET /api/apps/{app}/translations',
    'GET /api/i18n/geo',
    'GET /api/i18n/countries',
    'POST /api/campaigns/{id}/newsletter/signup',
    'GET /api/campaigns/{id}/auth/{service}/login',
    'POST /api/campaigns/{id}/auth/apple/login',
    'POST /api/accounts/session/refresh',
    'DELETE /api/accounts/session',
    'GET /api/accounts/me',
    'POST /api/campaigns/{id}/token_gate/provider_check',
    'GET /api/campaigns/{id}/token_gate/verify_access',
  ])('%s', (call) => {
    const [method, path] = call.split(' ') as [string, string];
    expect(cmsRoute(method, path)).toBeDefined();
  });

  it('the public calls need no back-office token; the account calls take the account token', () => {
    for (const call of ['POST /api/campaigns/{id}/newsletter/signup', 'GET /api/i18n/geo', 'GET /api/spotify/tracks']) {
      const [method, path] = call.split(' ') as [string, string];
      expect(cmsRoute(method, path)?.auth, call).toBe('none');
    }
    expect(cmsRoute('POST', '/api/users')?.auth).toBe('cms_optional');
    expect(cmsRoute('GET', '/api/accounts/me')?.auth).toBe('account');
    expect(cmsRoute('POST', '/api/accounts/session/refresh')?.auth).toBe('account');
    expect(cmsRoute('GET', '/api/campaigns/{id}/auth/{service}/login')?.redirect).toBe(true);
    expect(cmsRoute('POST', '/api/uploads')?.multipart).toBe(true);
  });

  it('user administration needs the users permission; campaign writes the campaigns one', () => {
    for (const call of ['POST /api/users/{id}/roles', 'POST /api/users/{id}/state', 'GET /api/users']) {
      const [method, path] = call.split(' ') as [string, string];
      expect(cmsRoute(method, path), call).toMatchObject({ auth: 'cms', permission: 'users.manage' });
    }
    for (const call of ['POST /api/campaigns/{id}/patch', 'POST /api/campaigns', 'POST /api/campaigns/{id}/clone']) {
      const [method, path] = call.split(' ') as [string, string];
      expect(cmsRoute(method, path), call).toMatchObject({ auth: 'cms', permission: 'campaigns.write' });
    }
  });
});
