/**
 * The live host dashboard end to end in Debian's Chromium against the real server: the
 * admin starts the party from the dashboard, three fans join, chat, vote and answer a poll over
 * the real API and sockets, and the dashboard's counters and charts follow; a fan is blocked from
 * the live chat view; fake traffic at 50 messages/s is screenshotted; the party is ended and the
 * recap shows chat and votes on the timeline; the CSV exports are downloaded and read.
 * Every wait is for a condition, never a fixed time.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PartyClient } from '@fanfare/client';
import type { ChatMessageEvent } from '@fanfare/protocol';
import { ADMIN } from '../../apps/server/src/cms/testing.ts';
import { setUpParty, TestSocket, type LiveFan } from '../../apps/server/src/test/liveParty.ts';
import { startTestServer, TEST_CMS_TOKEN, type TestServer } from '../../apps/server/src/test/harness.ts';
import { loginWithApple } from '../../apps/server/src/test/logins.ts';
import { buildAdminWeb, expectAccessible, launchChromium, screenshot, signInToBackOffice, waitFor } from './browser.ts';

const PARTY = 'e2e-dash';

let server: TestServer;
let browser: Browser;
let page: Page;
let cms: PartyClient;
let fans: LiveFan[] = [];
let sockets: TestSocket[] = [];

const figure = async (testId: string) => (await page.getByTestId(testId).textContent())?.trim() ?? '';
const untilFigure = (testId: string, ok: (text: string) => boolean, what: string) =>
  waitFor(async () => ok(await figure(testId)) || undefined, what, 20_000);

describe('the live host dashboard in Chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await buildAdminWeb();
    // Listeners by source are stored every 200 ms here (for the recap), 30 s by default.
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, SOURCE_SAMPLE_SECONDS: '0.2' } });
    const cast = await setUpParty(server, PARTY, { grants: false });
    cms = cast.cms;
    // A third fan, through the Apple login.
    const token = await loginWithApple(server.partyUrl, 'sam');
    const client = new PartyClient({ baseUrl: server.partyUrl, accessToken: token });
    const { id } = await client.call('signup', { params: { id: PARTY }, body: { real_name: 'Sam Apple', display_name: 'Sam Apple', competition_accepted: true } });
    fans = [cast.fan, cast.lena, { id, token, client }];
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', acceptDownloads: true });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
    await signInToBackOffice(page, server.cmsUrl);
  }, 180_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await browser?.close();
    await server?.close();
  });

  it('the dashboard connects over the party socket and starts the party', async () => {
    await page.goto(`${server.cmsUrl}/admin/#/parties/${PARTY}/dashboard`);
    await page.getByRole('heading', { name: 'Live dashboard' }).waitFor();
    await waitFor(async () => (await figure('connection')) === 'live' || undefined, 'the dashboard socket', 20_000);
    await page.getByText('Not started yet.').waitFor();
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByTestId('now-playing').waitFor();
    const status = await cms.call('getParty', { params: { id: PARTY } });
    expect(status.started_at).not.toBeNull();
  });

  it('three fans join, chat, vote and answer a poll: the counters and charts follow', async () => {
    sockets = fans.map((f) => TestSocket.open(server, PARTY, f.token));
    await Promise.all(sockets.map((s) => s.next('hello')));
    await untilFigure('stat-listeners', (t) => t === '3', 'three listeners on the dashboard');
    // What they hear, as each fan's app reports it: one on previews, one on the label stream, one not yet.
    sockets[0]!.send({ type: 'source', source: 'preview', reason: 'free_tier' });
    sockets[1]!.send({ type: 'source', source: 'label_stream', reason: 'no_sdk' });
    await untilFigure('stat-previews', (t) => t === '1', 'one fan on previews');
    expect(await page.getByTestId('source-label_stream').textContent()).toContain('1');
    expect(await page.getByTestId('source-unknown').textContent()).toContain('1');

    const names = ['Demo Fan', 'Lena', 'Sam Apple'];
    for (const [i, f] of fans.entries()) await f.client.call('postChatMessage', { params: { id: PARTY }, body: { text: `hello from ${names[i]}` } });
    await untilFigure('stat-messages', (t) => Number(t) >= 3, 'three messages counted');
    await page.getByTestId('chat-message').filter({ hasText: 'hello from Lena' }).waitFor();

    const tracks = (await cms.call('getTracks', { params: { id: PARTY } })).items;
    for (const f of fans) await f.client.call('voteTrack', { params: { id: PARTY, trackId: tracks.at(-1)!.id } });
    await untilFigure('stat-votes', (t) => t === '3', 'three votes counted');
    // The votes chart has a bar per track; recharts draws them as paths once the value is non-zero.
    await waitFor(async () => (await page.locator('[data-testid="chart-votes"] .recharts-bar-rectangle path').count()) >= 1 || undefined, 'a vote bar');

    // The poll is posted from the dashboard's form.
    await page.getByRole('tab', { name: 'Poll' }).click();
    await page.getByLabel('Question').fill('Encore?');
    await page.getByLabel('Options (one per line)').fill('Yes\nNo');
    await page.getByRole('button', { name: 'Post poll' }).click();
    const pollEvent = await waitFor(() => sockets[0]!.events.find((e): e is ChatMessageEvent => e.type === 'poll'), 'the poll on a fan socket');
    for (const f of fans) await f.client.call('answerPoll', { params: { id: PARTY, pollId: pollEvent.poll_id! }, body: { answer_id: 0 } });
    await untilFigure('stat-answers', (t) => t === '3', 'three answers counted');
    await page.getByTestId('question-card').filter({ hasText: 'Encore?' }).getByText('3 answers').waitFor();
    // Joins and leaves chart carries the joins.
    expect(Number((await figure('stat-joins')).split('/')[0])).toBeGreaterThanOrEqual(3);
    await expectAccessible(page, 'dashboard at 1280 px');
    await screenshot(page, 'party-dashboard');
  });

  it('a fan is blocked from the live chat view, and the server refuses their next message', async () => {
    const lena = fans[1]!;
    const row = page.getByTestId('chat-message').filter({ hasText: 'hello from Lena' });
    await row.getByRole('button', { name: 'Block' }).click();
    await page.getByTestId('blocked-list').getByText('Lena').waitFor();
    await expect(lena.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'still here?' } })).rejects.toMatchObject({ status: 403 });
  });

  it('fake traffic at 50 messages/s from the operations screen: the dashboard stays live (screenshot)', async () => {
    await page.getByRole('link', { name: 'Operations' }).click();
    await page.getByRole('heading', { name: 'Operations' }).waitFor();
    await expectAccessible(page, 'operations at 1280 px');
    await page.getByLabel('Messages per second').fill('50');
    await page.getByLabel('Stop after (seconds)').fill('40');
    await page.getByRole('button', { name: 'Start traffic' }).click();
    await page.getByText('Running: 50 messages/s for 40 s').waitFor();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await untilFigure('stat-rate', (t) => Number(t) >= 200, 'the chat rate climbing under fake traffic');
    const before = Number(await figure('stat-messages'));
    await untilFigure('stat-messages', (t) => Number(t) >= before + 100, 'the counters still moving');
    await screenshot(page, 'party-dashboard-load-50', 1280);
    await cms.call('stopFakeChat', { params: { id: PARTY } });
  });

  it('the party ends from the dashboard (confirmed), and the recap shows chat and votes on the timeline and the peak listeners by source', async () => {
    await page.getByRole('button', { name: 'End party' }).click();
    const dialog = page.getByRole('dialog', { name: 'End the party now?' });
    await dialog.getByRole('button', { name: 'End party' }).click();
    await page.getByText('Ended', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Recap' }).click();
    const play = page.getByTestId('recap-play').first();
    await play.waitFor();
    await waitFor(async () => Number((await play.getByTestId('recap-play-messages').textContent())?.split(' ')[0]) >= 3 || undefined, 'chat on the first play');
    expect(await play.getByTestId('recap-play-votes').textContent()).toBe('3 votes cast');
    await play.getByText(/poll “Encore\?” — Yes: 3, No: 0/).waitFor();
    // What fans heard outlives their connections: the peaks per source, stored while the party ran.
    const sources = page.getByTestId('recap-sources');
    expect(await sources.getByTestId('recap-source-preview').locator('td').nth(1).textContent()).toBe('1');
    expect(await sources.getByTestId('recap-source-label_stream').locator('td').nth(1).textContent()).toBe('1');
    await expectAccessible(page, 'recap at 1280 px');
    await screenshot(page, 'party-recap');
  });

  it('downloads the exports: chat log, poll results, fans with their competition consent', async () => {
    const download = async (label: string): Promise<string> => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label }).click()]);
      return fs.readFileSync((await file.path())!, 'utf8');
    };
    const chat = await download('Chat log');
    expect(chat.split('\r\n')[0]).toBe('id,timestamp,seq_id,type,sender_id,sender_name,sender_role,text,sticker,photo,video,reply_to_message_id,track_id,position_ms');
    expect(chat).toContain('hello from Lena');
    const answers = await download('Poll and quiz results');
    expect(answers).toMatch(/poll,[^,]+,Encore\?,[^,]+,[^,]+,\d+,0,Yes,3,/);
    const fansCsv = await download('Fans and competition consent');
    const samRow = fansCsv.split('\r\n').find((l) => l.includes('Sam Apple'))!;
    expect(samRow.endsWith(',true')).toBe(true);
    // The CMS token is the only key to these files.
    const res = await fetch(`${server.partyUrl}/api/parties/${PARTY}/exports/fans.csv`, { headers: { authorization: `Bearer ${fans[0]!.token}` } });
    expect(res.status).toBe(401);
    expect(TEST_CMS_TOKEN).toBeTruthy();
  });
});
