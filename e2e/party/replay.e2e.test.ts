/**
 * Party Replay in Debian's Chromium against the real server: a party runs with chat, a poll, a
 * quiz and a deleted message (driven through the API by its host and fans); after the end, a
 * second fan who was not there opens the replay from the End screen, scrubs to the poll's moment
 * and sees the poll with its final result at that position, and never the deleted message. The
 * campaign page of the party links to the replay. axe at 390 and 1280 px.
 */
import { ReplayManifest, ReplayTrackDocument } from '@fanfare/protocol';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createApp, createCampaign, login } from '../../apps/server/src/cms/testing.ts';
import { startLiveWorld, type LiveWorld } from '../../apps/server/src/test/liveParty.ts';
import { buildCampaignWeb } from '../campaign/browser.ts';
import { buildPartyWeb, expectNoSeriousAxeViolations, launchChromium, screenshotBoth, waitFor } from './browser.ts';

const PARTY = 'replay-e2e';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

let w: LiveWorld;
let browser: Browser;
const contexts: BrowserContext[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'de-DE' });
  context.setDefaultTimeout(20_000);
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  return page;
}

/** Moves the scrubber to `ms` as a pointer drag would (the input's own setter, then its input event). */
async function scrubTo(scrubber: Locator, ms: number): Promise<void> {
  await scrubber.evaluate((el, value) => {
    const input = el as HTMLInputElement;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, String(value));
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, ms);
}

async function atBothWidths(page: Page, what: string): Promise<void> {
  await expectNoSeriousAxeViolations(page, `${what} at 1280 px`);
  await page.setViewportSize(PHONE);
  await expectNoSeriousAxeViolations(page, `${what} at 390 px`);
  await page.setViewportSize(DESKTOP);
}

describe('party replay: a fan who missed the party replays it', { timeout: 180_000 }, () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    await buildPartyWeb();
    await buildCampaignWeb();
    w = await startLiveWorld('sqlite', PARTY, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    browser = await launchChromium();

    // The waiting room's chat, before the first track.
    await w.admin.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'Schon da im Warteraum' } });
    await sleep(50);
    // The party runs: chat, a deleted message, a poll with answers, a quiz with an answer.
    await w.host.client.call('startParty', { params: { id: PARTY } });
    await w.fan.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'Hallo zusammen' } });
    const gone = await w.fan.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'Das hier wird gelöscht' } });
    await w.fan.client.call('deleteChatMessage', { params: { id: PARTY, messageId: gone.id } });
    await sleep(1_500);
    const poll = await w.host.client.call('postPoll', { params: { id: PARTY }, body: { question: 'Bester Song?', options: ['Erster', 'Zweiter'], duration_seconds: 30, set_next_track: false } });
    ids.poll = poll.poll_id!;
    await w.fan.client.call('answerPoll', { params: { id: PARTY, pollId: poll.poll_id! }, body: { answer_id: 1 } });
    await w.lena.client.call('answerPoll', { params: { id: PARTY, pollId: poll.poll_id! }, body: { answer_id: 1 } });
    await w.admin.client.call('answerPoll', { params: { id: PARTY, pollId: poll.poll_id! }, body: { answer_id: 0 } });
    await sleep(1_500);
    const quiz = await w.host.client.call('postQuizQuestion', {
      params: { id: PARTY },
      body: { question: 'Welches Jahr?', options: ['1999', '2001'], correct_answer: 1, duration_seconds: 30, set_next_track: false },
    });
    ids.quiz = quiz.question_id!;
    await w.fan.client.call('answerQuizQuestion', { params: { id: PARTY, questionId: quiz.question_id! }, body: { answer_id: 1 } });
    await w.lena.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'Nach dem Quiz' } });
    // A vote swing and its withdrawal: Lena's vote takes the lead, withdrawn it hands it back.
    const tracks = (await w.cms.call('getTracks', { params: { id: PARTY } })).items;
    await w.fan.client.call('voteTrack', { params: { id: PARTY, trackId: tracks.at(-1)!.id } });
    await w.lena.client.call('voteTrack', { params: { id: PARTY, trackId: tracks.at(-2)!.id } });
    await w.lena.client.call('unvoteTrack', { params: { id: PARTY, trackId: tracks.at(-2)!.id } });
    await sleep(500);
    await w.host.client.call('endParty', { params: { id: PARTY } });
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await w?.close();
  });

  it('a second fan opens the replay from the End screen, scrubs to the poll and sees its final result there; never the deleted message', async () => {
    // The replay job has built it (the screen would otherwise say it is being prepared).
    const manifest = await waitFor(async () => {
      const res = await fetch(`${w.t.partyUrl}/api/parties/${PARTY}/replay`);
      return res.ok ? ReplayManifest.parse(await res.json()) : null;
    }, 'the replay built');
    const doc = ReplayTrackDocument.parse(await (await fetch(`${w.t.partyUrl}${manifest.plays[0]!.document}`)).json());
    const pollAt = doc.items.find((i) => i.id === ids.poll)!.position_ms;
    const quizAt = doc.items.find((i) => i.id === ids.quiz)!.position_ms;
    expect(quizAt).toBeGreaterThan(pollAt);

    // The campaign page of the party links to the replay.
    const cms = await login(w.t, ADMIN.email, ADMIN.password);
    const campaign = await createCampaign(w.t, cms, { app_id: await createApp(w.t, cms, 'replay-e2e'), name: 'Album night', slug: 'album-night', tag_manager: { party_id: PARTY } });
    const campaignPage = await newPage();
    await campaignPage.goto(campaign.url);
    const toReplay = campaignPage.getByTestId('campaign-party-replay');
    expect(await toReplay.getAttribute('href')).toBe(`${w.t.partyUrl}/p/${PARTY}/#/replay`);
    await expectNoSeriousAxeViolations(campaignPage, 'the campaign page with its replay link');

    const page = await newPage();
    await page.goto(`${w.t.partyUrl}/p/${PARTY}/#/end`);
    await page.getByTestId('end-replay').click();
    await page.waitForURL(/#\/replay/);
    await page.getByRole('heading', { name: `Replay: Party ${PARTY}` }).waitFor();
    const scrubber = page.getByTestId('replay-scrubber');
    await scrubber.waitFor();
    // At the start: the waiting room's chat, in its own section.
    await page.getByTestId('replay-before').getByTestId('replay-message').filter({ hasText: 'Schon da im Warteraum' }).waitFor();

    await scrubTo(scrubber, pollAt);
    const pollCard = page.getByTestId('replay-poll');
    await pollCard.getByText('Bester Song?').waitFor();
    // The final result: 2 of 3 answers for the second option.
    await pollCard.getByText('67% (2 Stimmen)').waitFor();
    await pollCard.getByText('33% (1 Stimme)').waitFor();
    expect(await page.getByTestId('replay-quiz').count()).toBe(0);
    await page.getByTestId('replay-message').filter({ hasText: 'Hallo zusammen' }).waitFor();
    expect(await page.getByText('Das hier wird gelöscht').count()).toBe(0);
    await atBothWidths(page, 'the replay at the poll');
    await screenshotBoth(page, 'replay-at-poll');

    // Scrubbing back before the poll hides it again; to the end shows the quiz with its answer.
    await scrubTo(scrubber, Math.max(0, pollAt - 1_000));
    await waitFor(async () => (await page.getByTestId('replay-poll').count()) === 0, 'the poll hidden before its moment');
    await scrubTo(scrubber, Number(await scrubber.getAttribute('max')));
    await page.getByTestId('replay-quiz').getByText('Richtig').waitFor();
    await page.getByTestId('replay-message').filter({ hasText: 'Nach dem Quiz' }).waitFor();
    await page.getByTestId('replay-votes').filter({ hasText: 'Stimme zurückgezogen' }).waitFor();
    expect(await page.getByText('Das hier wird gelöscht').count()).toBe(0);
    await atBothWidths(page, 'the replay at its end, with vote swings');

    // Play from the poll: the label stream plays in the page's audio element, and the replay follows it.
    await scrubTo(scrubber, pollAt);
    await page.getByTestId('replay-play').click();
    await waitFor(
      () => page.evaluate(() => {
        const audio = document.querySelector('audio');
        return !!audio && !audio.paused && audio.currentTime > 0;
      }),
      'the label stream playing',
      30_000,
    );
    await page.getByTestId('replay-poll').getByText('Bester Song?').waitFor();
    expect(await page.getByText('Das hier wird gelöscht').count()).toBe(0);
  });
});
