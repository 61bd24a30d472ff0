/**
 * The live dashboard's numbers against a known script, in Chromium against the real server: fans'
 * sockets join and leave (some before the dashboard opens), fans chat, and every figure on the
 * dashboard must equal what the script did. Every wait is for a condition, never a fixed time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN } from '../../apps/server/src/cms/testing.ts';
import { setUpParty, TestSocket, type LiveFan } from '../../apps/server/src/test/liveParty.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import type { PartyClient } from '@fanfare/client';
import { buildAdminWeb, expectAccessibleAtBothWidths, openBackOffice, screenshot, waitFor } from './browser.ts';

const PARTY = 'e2e-numbers';

let server: TestServer;
let browser: Browser;
let page: Page;
let cms: PartyClient;
let cast: { fan: LiveFan; lena: LiveFan; host: LiveFan; admin: LiveFan };
const sockets: TestSocket[] = [];

const figure = async (testId: string) => (await page.getByTestId(testId).textContent())?.trim() ?? '';

describe('the live dashboard counts what happened: joins, leaves, listeners, messages, the per-minute rate', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await buildAdminWeb();
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    const set = await setUpParty(server, PARTY, { grants: false });
    cms = set.cms;
    cast = set;
    ({ browser, page } = await openBackOffice(server.cmsUrl));
  }, 180_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await browser?.close();
    await server?.close();
  });

  it('script: 4 joins (2 before the dashboard), 2 leaves, 3 messages; every figure matches', async () => {
    await cms.call('startParty', { params: { id: PARTY } });
    const open = async (f: LiveFan) => {
      const s = TestSocket.open(server, PARTY, f.token);
      sockets.push(s);
      await s.next('hello');
      return s;
    };
    // Before any dashboard: Demo Fan and Lena join, Lena leaves.
    await open(cast.fan);
    const lena = await open(cast.lena);
    lena.close();

    await page.goto(`${server.cmsUrl}/admin/#/parties/${PARTY}/dashboard`);
    await page.getByRole('heading', { name: 'Live dashboard' }).waitFor();
    await waitFor(async () => (await figure('connection')) === 'live' || undefined, 'the dashboard socket', 20_000);

    // With the dashboard open: Hanna and Sam join, two messages from Demo Fan and one from Hanna, Sam leaves.
    await open(cast.host);
    const sam = await open(cast.admin);
    await cast.fan.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'one' } });
    await cast.fan.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'two' } });
    await cast.host.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'three' } });
    sam.close();

    const expected = {
      'stat-listeners': '2',
      'stat-rate': '3',
      'stat-messages': '3',
      'stat-votes': '0',
      'stat-answers': '0',
      'stat-joins': '4 / 2',
    };
    const read = async () => Object.fromEntries(await Promise.all(Object.keys(expected).map(async (id) => [id, await figure(id)] as const)));
    await waitFor(async () => JSON.stringify(await read()) === JSON.stringify(expected) || undefined, 'the dashboard figures of the script', 30_000).catch(() => undefined);
    expect(await read()).toEqual(expected);
    await page.getByTestId('chat-message').filter({ hasText: 'three' }).waitFor();
    await expectAccessibleAtBothWidths(page, 'dashboard with the script\'s figures');
    await screenshot(page, 'party-dashboard-numbers');
  });
});
