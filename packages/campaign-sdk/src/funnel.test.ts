import { describe, expect, it } from 'vitest';
import { FunnelEventsBody, funnelVariantOf } from '@fanfare/protocol';
import { FUNNEL_CONSENT_KEY, FunnelRecorder, referrerHostOf } from './funnel.ts';
import { fakeEnv } from './test/fakes.ts';

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
