// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { PutPartyBody, type Party } from '@fanfare/protocol';
import { ServicesProvider } from '../api/context.tsx';
import type { CmsApi } from '../api/cms.ts';
import type { SessionStore } from '../auth/session.ts';
import { PartyForm } from './PartyEditorScreen.tsx';
import { emptyPartyValues, partyPhase, partyToValues, toPutPartyBody, toPutTracksBody, validatePartyValues } from './partyForm.ts';

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
  frontend: { faq: [], visual: { primaryColor: '#112233', stickers: ['s1'] } },
  follow: [],
  login_required: true,
  status: null,
  music: null,
  is_playable: false,
};

describe('party editor values → PutPartyBody (spec listening-party §6, PUT /api/parties/{id})', () => {
  it('builds a body the protocol schema accepts, keeping frontend settings the editor does not show', () => {
    const body = toPutPartyBody({ ...partyToValues(party), dark: true, font: 'rubik' }, party.frontend);
    expect(PutPartyBody.safeParse(body).success).toBe(true);
    expect(body.frontend?.faq).toEqual([]);
    expect(body.frontend?.visual).toEqual({ primaryColor: '#112233', stickers: ['s1'], dark: true, font: 'rubik' });
    expect(body.wp_post_id).toBe(42);
    expect(body.ends_at).toBeNull();
    expect(body.starts_at).toBe(party.starts_at);
  });
  it('an empty colour or font is dropped (the app default), an empty wp_post_id is null', () => {
    const body = toPutPartyBody({ ...partyToValues(party), primaryColor: '', wpPostId: '' }, party.frontend);
    expect(body.frontend?.visual && 'primaryColor' in body.frontend.visual).toBe(false);
    expect(body.wp_post_id).toBeNull();
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
    expect(validatePartyValues({ ...valid, primaryColor: 'red' }).primaryColor).toBe('Expected a CSS hex colour (#rgb, #rrggbb or #rrggbbaa)');
  });
  it('refuses a waiting room above WAITING_ROOM_MAX_MINUTES and a non-integer wp_post_id', () => {
    const e = validatePartyValues({ ...valid, waitingRoomMinutes: 10_000_000, wpPostId: '1.5' });
    expect(e.waitingRoomMinutes).toBeTruthy();
    expect(e.wpPostId).toBeTruthy();
  });
  it('music: no id means no tracks call; an id makes a PutTracksBody', () => {
    expect(toPutTracksBody(valid)).toBeNull();
    expect(toPutTracksBody({ ...valid, musicId: ' abc ', musicType: 'playlist', musicService: 'apple' })).toEqual({ type: 'playlist', id: 'abc', service: 'apple' });
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
          <ServicesProvider services={{ api: { token: () => 't' } as unknown as CmsApi, session }}>
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
