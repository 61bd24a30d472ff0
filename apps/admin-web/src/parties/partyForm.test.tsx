// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { PostGrantBody, PutPartyBody, type Party } from '@fanfare/protocol';
import { toPostGrantBody } from './GrantsPanel.tsx';
import { ServicesProvider } from '../api/context.tsx';
import type { CmsApi } from '../api/cms.ts';
import type { SessionStore } from '../auth/session.ts';
import { PartyForm } from './PartyEditorScreen.tsx';
import { emptyPartyValues, followFromValues, followToValues, partyPhase, partyToValues, toPreviewParty, toPutPartyBody, toPutTracksBody, validatePartyValues } from './partyForm.ts';
import { musicChanged, tabOfField } from './PartyEditorScreen.tsx';
import { parseCatalogRef, searchDemo } from './editor/catalog.ts';
import { absoluteMediaUrl } from './editor/ImageField.tsx';

afterEach(cleanup);

const party: Party = {
  id: 'demo',
  name: 'Demo party',
  created_at: '2027-01-01T00:00:00.000Z',
  updated_at: '2027-01-01T00:00:00.000Z',
  started_at: null,
  starts_at: '2027-02-01T18:00:00.000Z',
  ends_at: null,
  voting_enabled: true,
  auto_start: false,
  wp_post_id: 42,
  frontend: { faq: [], chatSlowModeSeconds: 5, legal: { imprint: '<p>Label</p>' }, visual: { primaryColor: '#112233', stickers: ['s1'] } },
  follow: [],
  login_required: true,
  status: null,
  music: null,
  is_playable: false,
};

const withVisual = (over: Partial<ReturnType<typeof partyToValues>['visual']>) => {
  const v = partyToValues(party);
  return { ...v, visual: { ...v.visual, ...over } };
};

describe('party editor values → PutPartyBody (spec listening-party §6, PUT /api/parties/{id})', () => {
  it('builds a body the protocol schema accepts, keeping frontend settings the editor does not show', () => {
    const body = toPutPartyBody(withVisual({ dark: true, font: 'rubik' }), party.frontend);
    expect(PutPartyBody.safeParse(body).success).toBe(true);
    expect(body.frontend?.faq).toEqual([]);
    expect(body.frontend?.chatSlowModeSeconds).toBe(5);
    expect(body.frontend?.legal).toEqual({ imprint: '<p>Label</p>' });
    expect(body.frontend?.visual).toMatchObject({ primaryColor: '#112233', stickers: ['s1'], dark: true, font: 'rubik' });
    expect(body.wp_post_id).toBe(42);
    expect(body.ends_at).toBeNull();
    expect(body.starts_at).toBe(party.starts_at);
  });
  it('an empty colour, image or font is dropped (the app default), an empty wp_post_id is null', () => {
    const body = toPutPartyBody({ ...withVisual({ primaryColor: '', logoImage: '' }), wpPostId: '' }, party.frontend);
    expect(body.frontend?.visual && 'primaryColor' in body.frontend.visual).toBe(false);
    expect(body.frontend?.visual && 'logoImage' in body.frontend.visual).toBe(false);
    expect(body.wp_post_id).toBeNull();
  });
  it('every visual setting of spec 3 travels: colours, five fonts, images, sticker background, stickers, header elements, dark', () => {
    const body = toPutPartyBody(
      withVisual({ backgroundColor: '#000000', ownProfileBackground: '#abcdef', font: 'playfair', headerImage: 'https://img.example/h.png', stickerBackground: '#ffffff22', stickers: ['fire', 'heart'], headerElements: ['title', 'logo'], dark: false }),
      party.frontend,
    );
    expect(PutPartyBody.parse(body).frontend?.visual).toMatchObject({ backgroundColor: '#000000', ownProfileBackground: '#abcdef', font: 'playfair', headerImage: 'https://img.example/h.png', stickerBackground: '#ffffff22', stickers: ['fire', 'heart'], headerElements: ['title', 'logo'], dark: false });
  });
  it('frontend settings: competition, page modules of Waiting and End, FAQ with page and service filters and image', () => {
    const v = { ...partyToValues(party), competitionIsEnabled: true, pageModulesWaiting: ['tracks', 'countdown'], pageModulesEnd: ['follow'], faq: [{ question: 'Wann?', answer: '<b>Bald</b>', image: '/img/faq.png', locations: [{ page: 'waiting', service: 'All' }] }] };
    const f = PutPartyBody.parse(toPutPartyBody(v, party.frontend)).frontend!;
    expect(f.competitionIsEnabled).toBe(true);
    expect(f.pageModulesWaiting).toEqual(['tracks', 'countdown']);
    expect(f.pageModulesEnd).toEqual(['follow']);
    expect(f.faq).toEqual([{ question: 'Wann?', answer: '<b>Bald</b>', image: '/img/faq.png', locations: [{ page: 'waiting', service: 'All' }] }]);
  });
  it('the read-only waiting room: off by default, switched on it travels in frontend and comes back', () => {
    expect(partyToValues(party).waitingRoomReadOnly).toBe(party.frontend.waitingRoomReadOnly ?? false);
    expect(emptyPartyValues().waitingRoomReadOnly).toBe(false);
    const f = PutPartyBody.parse(toPutPartyBody({ ...partyToValues(party), waitingRoomReadOnly: true }, party.frontend)).frontend!;
    expect(f.waitingRoomReadOnly).toBe(true);
    expect(partyToValues({ ...party, frontend: f }).waitingRoomReadOnly).toBe(true);
  });

  it('the label-stream switch is on by default (absent) and round-trips when turned off', () => {
    expect(partyToValues(party).labelStreamFallback).toBe(party.frontend.labelStreamFallback ?? true);
    expect(emptyPartyValues().labelStreamFallback).toBe(true);
    const f = PutPartyBody.parse(toPutPartyBody({ ...partyToValues(party), labelStreamFallback: false }, party.frontend)).frontend!;
    expect(f.labelStreamFallback).toBe(false);
    expect(partyToValues({ ...party, frontend: f }).labelStreamFallback).toBe(false);
  });
});

describe('follow editor (spec 3: per service album, playlist, artists; entries with an empty id are dropped)', () => {
  it('round-trips the list and drops empty ids', () => {
    const values = followToValues([
      { type: 'album', service: 'spotify', id: 'alb' },
      { type: 'artist', service: 'spotify', id: 'a1' },
      { type: 'playlist', service: 'apple', id: 'pl.1' },
    ]);
    expect(values.spotify).toEqual({ album: 'alb', playlist: '', artists: ['a1'] });
    values.spotify.artists.push('  ', 'a2');
    values.apple.album = ' ';
    expect(followFromValues(values)).toEqual([
      { type: 'album', service: 'spotify', id: 'alb' },
      { type: 'artist', service: 'spotify', id: 'a1' },
      { type: 'artist', service: 'spotify', id: 'a2' },
      { type: 'playlist', service: 'apple', id: 'pl.1' },
    ]);
  });
});

describe('preview party: the preview shows settings before they are saved', () => {
  it('carries the unsaved values over the stored party', () => {
    const p = toPreviewParty('demo', { ...withVisual({ primaryColor: '#ff0000' }), name: 'Renamed' }, party);
    expect(p.name).toBe('Renamed');
    expect(p.frontend.visual?.primaryColor).toBe('#ff0000');
    expect(p.id).toBe('demo');
  });
  it('keeps the stored values while the form holds an invalid one, and builds a new party from scratch', () => {
    expect(toPreviewParty('demo', withVisual({ primaryColor: '#ff' }), party).frontend.visual?.primaryColor).toBe('#112233');
    const fresh = toPreviewParty('new-one', { ...emptyPartyValues(), name: 'Fresh' }, null);
    expect(fresh.name).toBe('Fresh');
    expect(fresh.id).toBe('new-one');
  });
});

describe('music (spec 7 search and tracks)', () => {
  it('reads Spotify and Apple Music links and plain ids', () => {
    expect(parseCatalogRef('https://open.spotify.com/album/6iz0r2rAVeYBGcpxZOyXHX?si=x')).toEqual({ type: 'album', id: '6iz0r2rAVeYBGcpxZOyXHX', service: 'spotify' });
    expect(parseCatalogRef('https://music.apple.com/at/album/tidal-lights/9200000101')).toEqual({ type: 'album', id: '9200000101', service: 'apple', country: 'at' });
    expect(parseCatalogRef('spotify:playlist:zzxphv6HPS7V5jcDnmUpF2')).toMatchObject({ type: 'playlist', service: 'spotify' });
    expect(parseCatalogRef('9200000101')).toEqual({ id: '9200000101' });
    expect(parseCatalogRef('https://example.com/x')).toBeNull();
  });
  it('finds the demo catalog by name or artist', () => {
    expect(searchDemo('tidal').map((p) => p.name)).toEqual(['Tidal Lights']);
    expect(searchDemo('mara quill').map((p) => p.name)).toContain('Paper Satellites');
    expect(searchDemo('', 'playlist').every((p) => p.type === 'playlist')).toBe(true);
  });
  it('the tracks call is made when the album, the country or the excluded tracks change', () => {
    const stored = { items: [], options: { type: 'album' as const, id: 'a', service: 'spotify' as const, country: 'de', url: null }, excluded: ['t2'] };
    expect(musicChanged({ type: 'album', id: 'a', service: 'spotify', country: 'de', excluded: ['t2'] }, stored)).toBe(false);
    expect(musicChanged({ type: 'album', id: 'a', service: 'spotify', country: 'at', excluded: ['t2'] }, stored)).toBe(true);
    expect(musicChanged({ type: 'album', id: 'a', service: 'spotify', country: 'de', excluded: [] }, stored)).toBe(true);
    expect(musicChanged({ type: 'album', id: 'a', service: 'spotify', country: 'de' }, undefined)).toBe(true);
  });
  it('errors show on the tab of their field', () => {
    expect(tabOfField('visual.primaryColor')).toBe('look');
    expect(tabOfField('faq.0.image')).toBe('pages');
    expect(tabOfField('musicCountry')).toBe('music');
    expect(tabOfField('follow')).toBe('follow');
    expect(tabOfField('endsAt')).toBe('general');
  });
});

describe('party editor validation with the protocol schemas', () => {
  const valid = { ...emptyPartyValues(new Date('2027-01-01T12:00:00Z')), name: 'Launch' };
  it('accepts the defaults with a name', () => {
    expect(validatePartyValues(valid)).toEqual({});
  });
  it('refuses an empty name', () => {
    expect(validatePartyValues({ ...valid, name: '  ' }).name).toBeTruthy();
  });
  it('PutPartyBody: ends_at must be after starts_at, shown on the end field', () => {
    expect(validatePartyValues({ ...valid, startsAt: '2027-03-01T20:00', endsAt: '2027-03-01T19:00' }).endsAt).toBe('ends_at must be after starts_at');
  });
  it('refuses a colour that is not CSS hex, with the schema message', () => {
    expect(validatePartyValues({ ...valid, visual: { ...valid.visual, primaryColor: 'red' } })['visual.primaryColor']).toBe('Expected a CSS hex colour (#rgb, #rrggbb or #rrggbbaa)');
  });
  it('refuses an FAQ image that is not a URL, on its field', () => {
    const faq = [{ question: 'Q', answer: 'A', image: 'not a url', locations: [] }];
    expect(validatePartyValues({ ...valid, faq })['faq.0.image']).toBe('Expected an http(s) URL or a path starting with /');
  });
  it('media library picks (the CMS upload URL, `${cmsPublicUrl}/uploads/cms/{key}`) pass WebUrl in the five images, FAQ image and grant picture', () => {
    // The CMS's default public URL in development is http on its own port; production is https.
    for (const cms of ['http://127.0.0.1:8081', 'https://cms.example.com']) {
      const picked = absoluteMediaUrl('/uploads/cms/0123abcd-cover.png', `${cms}/admin/parties/launch`);
      expect(picked).toBe(`${cms}/uploads/cms/0123abcd-cover.png`);
      const visual = { ...valid.visual, musicImage: picked, headerImage: picked, radioImage: picked, phoneImage: picked, logoImage: picked };
      const faq = [{ question: 'Q', answer: 'A', image: picked, locations: [] }];
      expect(validatePartyValues({ ...valid, visual, faq })).toEqual({});
      expect(toPutPartyBody({ ...valid, visual, faq }).frontend?.visual?.logoImage).toBe(picked);
      expect(PostGrantBody.safeParse(toPostGrantBody('link', { role: 'host', display_name: 'H', profile_picture: picked, service: 'spotify', service_id: '', max_uses: 1, expires_in_days: 1 })).success).toBe(true);
    }
    // An absolute address already (pasted, or a CMS on another origin) is kept as it is.
    expect(absoluteMediaUrl('https://cdn.example.com/a.png', 'http://127.0.0.1:8081/admin/')).toBe('https://cdn.example.com/a.png');
  });
  it('refuses a waiting room above WAITING_ROOM_MAX_MINUTES and a non-integer wp_post_id', () => {
    const e = validatePartyValues({ ...valid, waitingRoomMinutes: 10_000_000, wpPostId: '1.5' });
    expect(e.waitingRoomMinutes).toBeTruthy();
    expect(e.wpPostId).toBeTruthy();
  });
  it('music: no id means no tracks call; an id makes a PutTracksBody', () => {
    expect(toPutTracksBody(valid)).toBeNull();
    expect(toPutTracksBody({ ...valid, musicId: ' abc ', musicType: 'playlist', musicService: 'apple', musicCountry: 'AT', excluded: ['t1'] })).toEqual({ type: 'playlist', id: 'abc', service: 'apple', country: 'at', excluded: ['t1'] });
  });
  it('groups parties as upcoming, live or ended', () => {
    const now = Date.parse('2027-02-01T19:00:00Z');
    expect(partyPhase({ status: null, ends_at: null }, now)).toBe('upcoming');
    expect(partyPhase({ status: {} as Party['status'], ends_at: null }, now)).toBe('live');
    expect(partyPhase({ status: null, ends_at: '2027-02-01T18:30:00Z' }, now)).toBe('ended');
  });
});

describe('party form (rendered)', () => {
  it('shows the schema errors beside their fields and sends nothing when invalid', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const session = { subscribe: () => () => undefined, get: () => null, signOut: () => undefined } as unknown as SessionStore;
    render(
      <MantineProvider>
        <QueryClientProvider client={new QueryClient()}>
          <ServicesProvider services={{ api: { token: () => 't' } as unknown as CmsApi, session, config: { partyUrl: 'https://party.test', cmsUrl: 'https://cms.test' } }}>
            <PartyForm partyId="demo" party={party} onSaved={() => undefined} />
          </ServicesProvider>
        </QueryClientProvider>
      </MantineProvider>,
    );
    fireEvent.change(screen.getByLabelText('Ends', { exact: false }), { target: { value: '2027-01-01T10:00' } });
    fireEvent.change(screen.getByLabelText('Primary colour'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByText('ends_at must be after starts_at')).toBeTruthy());
    expect(screen.getByText('Expected a CSS hex colour (#rgb, #rrggbb or #rrggbbaa)')).toBeTruthy();
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });
});

describe('grant bodies (SPEC-NOTES grants: an account or a link, with role, display name and picture)', () => {
  const values = { role: 'host' as const, display_name: 'Hanna', profile_picture: ' ', service: 'apple' as const, service_id: ' 123 ', max_uses: 3, expires_in_days: 2 };
  it('a link carries its use limit and expiry, no account; an empty picture is left out', () => {
    const body = toPostGrantBody('link', values);
    expect(body).toEqual({ role: 'host', display_name: 'Hanna', max_uses: 3, expires_in_days: 2 });
    expect(PostGrantBody.safeParse(body).success).toBe(true);
  });
  it('an account grant carries service and id (trimmed) and no link limits', () => {
    const body = toPostGrantBody('account', { ...values, profile_picture: '/media/h.png' });
    expect(body).toEqual({ role: 'host', display_name: 'Hanna', profile_picture: '/media/h.png', service: 'apple', service_id: '123' });
    expect(PostGrantBody.safeParse(body).success).toBe(true);
    expect(PostGrantBody.safeParse(toPostGrantBody('account', { ...values, service_id: '' })).success).toBe(false);
  });
});
