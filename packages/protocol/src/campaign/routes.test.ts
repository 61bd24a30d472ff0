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
