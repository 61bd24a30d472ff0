import { afterEach, describe, expect, it, vi } from 'vitest';
import { FunnelEventsBody, funnelVariantOf } from '@fanfare/protocol';
import { FUNNEL_CONSENT_KEY, FunnelRecorder, funnelVisitorKey, referrerHostOf } from './funnel.ts';
import { blockedStorage, fakeEnv } from './test/fakes.ts';

function recorder(o: { objects?: boolean; isAbTestOn?: boolean; isLive?: boolean } = {}) {
  const sent: unknown[] = [];
  const f = fakeEnv({
    href: 'https://cms.example/c/app/launch',
    fetch: async (_url, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return new Response('{"recorded":1}', { status: 202 });
    },
  });
  const r = new FunnelRecorder(
    f.env,
    () => 'https://cms.example/api/campaigns/c1/funnel/events',
    () => ({ id: 'c1', isAbTestOn: o.isAbTestOn ?? false }),
    () => ({ utm_source: 'instagram', utm_medium: 'social' }),
    () => o.isLive ?? true,
    { referrer: 'https://l.instagram.com/?u=x', objects: () => o.objects === true },
  );
  return { r, sent, f };
}

describe('funnel events of the page (decision 0039)', () => {
  it('sends a visit with UTM keys, the referrer host and the variant, valid for the ingest schema, and no personal data', async () => {
    const { r, sent } = recorder();
    r.record('visit');
    r.record('visit'); // once per page load
    r.record('play');
    await r.flush();
    expect(sent).toEqual([{ events: [
      { kind: 'visit', utm_source: 'instagram', utm_medium: 'social', utm_campaign: '', referrer_host: 'l.instagram.com', variant: 'a' },
      { kind: 'play', utm_source: 'instagram', utm_medium: 'social', utm_campaign: '', referrer_host: 'l.instagram.com', variant: 'a' },
    ] }]);
    expect(FunnelEventsBody.safeParse(sent[0]).success).toBe(true);
  });

  it('records nothing and keeps no visitor id when the browser objects (GPC/DNT), and gives no context to a signup', async () => {
    const { r, sent, f } = recorder({ objects: true, isAbTestOn: true });
    r.record('visit');
    await r.flush();
    expect(sent).toEqual([]);
    expect(r.context()).toBeNull();
    expect(r.variant).toBe('a');
    expect(f.local.getItem('fanfare:c1:visitor')).toBeNull();
  });

  it("the consent manager's refusal stops recording and forgets the visitor id", async () => {
    const { r, sent, f } = recorder({ isAbTestOn: true });
    void r.variant;
    expect(f.local.getItem('fanfare:c1:visitor')).not.toBeNull();
    r.setConsent(false);
    expect(f.local.getItem(FUNNEL_CONSENT_KEY)).toBe('denied');
    expect(f.local.getItem('fanfare:c1:visitor')).toBeNull();
    r.record('visit');
    await r.flush();
    expect(sent).toEqual([]);
  });

  it("an editor's preview is never recorded", async () => {
    const { r, sent } = recorder({ isLive: false });
    r.record('visit');
    await r.flush();
    expect(sent).toEqual([]);
  });

  it('assigns the variant stably from the stored visitor id (hash), A when the test is off', () => {
    const { r, f } = recorder({ isAbTestOn: true });
    const first = r.variant;
    const id = f.local.getItem('fanfare:c1:visitor')!.split(':')[0]!;
    expect(first).toBe(funnelVariantOf('c1', id, true));
    expect(r.variant).toBe(first);
    expect(recorder({ isAbTestOn: false }).r.variant).toBe('a');
  });

  it('splits visitors about evenly between the variants', () => {
    let b = 0;
    for (let i = 0; i < 10_000; i++) if (funnelVariantOf('campaign', `visitor-${i}`, true) === 'b') b++;
    expect(b).toBeGreaterThan(4700);
    expect(b).toBeLessThan(5300);
  });

  it("keeps only the referrer's host, and none for the page's own host", () => {
    expect(referrerHostOf('https://www.Google.com/search?q=fan@example.com', 'https://cms.example/c/a')).toBe('www.google.com');
    expect(referrerHostOf('https://cms.example/other', 'https://cms.example/c/a')).toBe('');
    expect(referrerHostOf('not a url', 'https://cms.example/c/a')).toBe('');
  });
});

describe('funnel events: batching, consent and the visitor id', () => {
  afterEach(() => vi.useRealTimers());

  function recording(o: { utm?: Record<string, string>; referrer?: string; href?: string; fail?: boolean; isAbTestOn?: boolean } = {}) {
    const requests: { url: string; init: RequestInit }[] = [];
    const f = fakeEnv({
      href: o.href ?? 'https://cms.example/c/app/launch',
      fetch: async (url, init) => {
        requests.push({ url: String(url), init: init! });
        if (o.fail) throw new Error('offline');
        return new Response('{}', { status: 202 });
      },
    });
    const r = new FunnelRecorder(f.env, () => 'https://cms.example/api/campaigns/c1/funnel/events', () => ({ id: 'c1', isAbTestOn: o.isAbTestOn ?? false }), () => o.utm ?? {}, () => true, { referrer: o.referrer });
    return { r, f, requests, events: () => requests.map((q) => (JSON.parse(String(q.init.body)) as { events: { kind: string }[] }).events.map((e) => e.kind)) };
  }

  it('sends the queued events together 400 ms after the first, as a kept-alive JSON POST to the endpoint', async () => {
    vi.useFakeTimers();
    const { r, requests, events } = recording();
    r.record('visit');
    vi.advanceTimersByTime(200);
    r.record('play');
    vi.advanceTimersByTime(199);
    expect(requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(events()).toEqual([['visit', 'play']]);
    expect(requests[0]!.url).toBe('https://cms.example/api/campaigns/c1/funnel/events');
    expect(requests[0]!.init).toMatchObject({ method: 'POST', keepalive: true, headers: { 'content-type': 'application/json' } });
    // A later event starts a new batch.
    r.record('login');
    await vi.advanceTimersByTimeAsync(400);
    expect(events()).toEqual([['visit', 'play'], ['login']]);
  });

  it('records repeats when asked to; a batch holds at most 20 events; an empty queue sends nothing', async () => {
    const { r, events, requests } = recording();
    await r.flush();
    expect(requests).toHaveLength(0);
    for (let i = 0; i < 25; i++) r.record('play', false);
    await r.flush();
    expect(events()[0]).toHaveLength(20);
  });

  it('a failed send is logged and forgotten', async () => {
    const { r, f, requests } = recording({ fail: true });
    r.record('visit');
    await r.flush();
    expect(f.logs).toMatchObject([{ level: 'warn', args: ['funnel events not sent', { message: 'offline' }] }]);
    await r.flush();
    expect(requests).toHaveLength(1);
  });

  it('UTM values are cut to 100 characters; missing ones are empty; the referrer host is kept', () => {
    const long = 'x'.repeat(150);
    const { r } = recording({ utm: { utm_source: long, utm_medium: long, utm_campaign: long }, referrer: 'https://News.Example/a' });
    expect(r.context()).toEqual({ utm_source: 'x'.repeat(100), utm_medium: 'x'.repeat(100), utm_campaign: 'x'.repeat(100), referrer_host: 'news.example', variant: 'a' });
    expect(recording().r.context()).toEqual({ utm_source: '', utm_medium: '', utm_campaign: '', referrer_host: '', variant: 'a' });
  });

  it("the referrer host is cut to 253 characters and compared with the page's host in any letter case", () => {
    const host = ['a', 'b', 'c', 'd', 'e'].map((c) => c.repeat(60)).join('.') + '.example';
    expect(host.length).toBeGreaterThan(253);
    expect(referrerHostOf(`https://${host}/`, 'https://cms.example/')).toBe(host.slice(0, 253));
    expect(referrerHostOf('https://CMS.example/x', 'https://cms.EXAMPLE/c/a')).toBe('');
    expect(referrerHostOf('', 'https://cms.example/c/a')).toBe('');
    expect(referrerHostOf(undefined, 'https://cms.example/c/a')).toBe('');
  });

  it('consent granted again records again; storage that throws counts as consent but keeps no visitor (variant A)', async () => {
    const { r, f, events } = recording({ isAbTestOn: true });
    r.setConsent(false);
    r.setConsent(true);
    expect(f.local.getItem(FUNNEL_CONSENT_KEY)).toBe('granted');
    expect(r.hasConsent).toBe(true);
    r.record('visit');
    await r.flush();
    expect(events()).toEqual([['visit']]);
    const blocked = recording({ isAbTestOn: true });
    blocked.f.env.localStorage = blockedStorage;
    expect(blocked.r.hasConsent).toBe(true);
    expect(blocked.r.variant).toBe('a');
    expect(() => blocked.r.setConsent(false)).not.toThrow();
  });

  it('a stored visitor id is reused until it is 13 months old, then replaced', () => {
    const { r, f } = recording({ isAbTestOn: true });
    const key = funnelVisitorKey('c1');
    expect(key).toBe('fanfare:c1:visitor');
    const now = Date.now();
    f.env.now = () => now;
    const day = 86_400_000;
    f.local.setItem(key, `keepme:${now - 394 * day}`);
    void r.variant;
    expect(f.local.getItem(key)).toBe(`keepme:${now - 394 * day}`);
    const old = recording({ isAbTestOn: true });
    old.f.env.now = () => now;
    old.f.local.setItem(key, `oldid:${now - 395 * day}`);
    void old.r.variant;
    const [id, since] = old.f.local.getItem(key)!.split(':');
    expect(id).not.toBe('oldid');
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(Number(since)).toBe(now);
  });

  it('destroy drops the queue and the pending send', async () => {
    vi.useFakeTimers();
    const { r, requests } = recording();
    r.record('visit');
    r.destroy();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    await r.flush();
    expect(requests).toHaveLength(0);
  });

  it("the consent choice is kept under the SDK's storage prefix; granting keeps the visitor id, refusing drops what is queued", async () => {
    expect(FUNNEL_CONSENT_KEY).toBe('fanfare:tracking-consent');
    const { r, f, events } = recording({ isAbTestOn: true });
    void r.variant;
    const id = f.local.getItem(funnelVisitorKey('c1'));
    expect(id).not.toBeNull();
    r.record('visit');
    r.setConsent(true);
    expect(f.local.getItem(funnelVisitorKey('c1'))).toBe(id);
    await r.flush();
    expect(events()).toEqual([['visit']]);
    r.record('play');
    r.setConsent(false);
    r.setConsent(true);
    await r.flush();
    expect(events()).toEqual([['visit']]);
  });

  it('the visitor id is read once per page: 12 random bytes in hex, kept even if storage is cleared meanwhile', () => {
    const bytes = vi.spyOn(crypto, 'getRandomValues').mockImplementation((array) => {
      const view = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      view.forEach((_, i) => (view[i] = i));
      return array;
    });
    try {
      const { r, f } = recording({ isAbTestOn: true });
      void r.variant;
      const key = funnelVisitorKey('c1');
      expect(f.local.getItem(key)!.split(':')[0]).toBe('000102030405060708090a0b');
      // This visitor falls in variant B, so a variant stuck at A would show.
      expect(funnelVariantOf('c1', '000102030405060708090a0b', true)).toBe('b');
      expect(r.variant).toBe('b');
      f.local.removeItem(key);
      void r.variant;
      expect(f.local.getItem(key)).toBeNull();
    } finally {
      bytes.mockRestore();
    }
  });
});
