import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Every source module of the package, each imported inside its own test rather than at the top of
 * the file: a schema that throws while it is built (e.g. a union option without its discriminator)
 * then fails that test, where a failed top-level import would only fail the whole file. The
 * specifiers are literal so that test tools tracing imports see each module. `test/` holds test
 * support, not modules.
 */
const MODULES: Record<string, () => Promise<unknown>> = {
  'campaign/backOffice.ts': () => import('./campaign/backOffice.ts'),
  'campaign/bridge.ts': () => import('./campaign/bridge.ts'),
  'campaign/calls.ts': () => import('./campaign/calls.ts'),
  'campaign/constants.ts': () => import('./campaign/constants.ts'),
  'campaign/editorial.ts': () => import('./campaign/editorial.ts'),
  'campaign/entities.ts': () => import('./campaign/entities.ts'),
  'campaign/funnel.ts': () => import('./campaign/funnel.ts'),
  'campaign/funnelRules.ts': () => import('./campaign/funnelRules.ts'),
  'campaign/handover.ts': () => import('./campaign/handover.ts'),
  'campaign/index.ts': () => import('./campaign/index.ts'),
  'campaign/lookups.ts': () => import('./campaign/lookups.ts'),
  'campaign/page.ts': () => import('./campaign/page.ts'),
  'campaign/permissions.ts': () => import('./campaign/permissions.ts'),
  'campaign/presave.ts': () => import('./campaign/presave.ts'),
  'campaign/routes.ts': () => import('./campaign/routes.ts'),
  'common.ts': () => import('./common.ts'),
  'dataRights.ts': () => import('./dataRights.ts'),
  'index.ts': () => import('./index.ts'),
  'oauth.ts': () => import('./oauth.ts'),
  'party/abilities.ts': () => import('./party/abilities.ts'),
  'party/calls.ts': () => import('./party/calls.ts'),
  'party/chat.ts': () => import('./party/chat.ts'),
  'party/constants.ts': () => import('./party/constants.ts'),
  'party/dashboard.ts': () => import('./party/dashboard.ts'),
  'party/entities.ts': () => import('./party/entities.ts'),
  'party/preview.ts': () => import('./party/preview.ts'),
  'party/replay.ts': () => import('./party/replay.ts'),
  'party/routes.ts': () => import('./party/routes.ts'),
  'party/socket.ts': () => import('./party/socket.ts'),
  'party/source.ts': () => import('./party/source.ts'),
  'providerSdks.ts': () => import('./providerSdks.ts'),
  'routeDef.ts': () => import('./routeDef.ts'),
  'webConfig.ts': () => import('./webConfig.ts'),
};

describe('the protocol package', () => {
  it('lists every source module on disk', () => {
    const onDisk = readdirSync(new URL('.', import.meta.url), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith('test/'))
      .sort();
    expect(Object.keys(MODULES).sort()).toEqual(onDisk);
  });

  it.each(Object.entries(MODULES))('module %s loads without throwing', async (_name, load) => {
    await expect(load()).resolves.toBeTypeOf('object');
  });
});
