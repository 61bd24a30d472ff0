/**
 * What the preview shows where a real party would show people (issue 14): a sample fan signed up
 * for the party, a few chat messages (the host's, another fan's, the viewer's own, so the message
 * colours of the visual settings show) and the timeline of the Player screen.
 */
import type { ChatMessage, Party, PartyTrack, PartyUser, PlayerStatus } from '@fanfare/protocol';

/** The token of the sample fan: never sent anywhere, since preview mode opens no socket. */
export const PREVIEW_TOKEN = 'preview';
export const PREVIEW_FAN_ID = 'preview-fan';

export function sampleFan(): PartyUser {
  return {
    id: PREVIEW_FAN_ID,
    real_name: 'Preview Fan',
    display_name: 'Preview Fan',
    email: null,
    premium: true,
    country: 'de',
    profile_sticker: null,
    profile_picture: null,
    role: 'listener',
    can_chat: true,
    is_subscribed: true,
    service: 'spotify',
    track_votes: [],
    poll_answers: [],
    quiz_answers: [],
    quiz_score: 0,
  };
}

/** A stand-in track while the party has no music yet, so the Player screen has something to show. */
export function sampleTrack(): PartyTrack {
  return {
    id: 'preview-track',
    name: 'Preview Track',
    artists: ['Artist'],
    album: 'Album',
    duration_ms: 180_000,
    image: null,
    service: 'umg_hls',
    hls_url: null,
    votes: 0,
    played: false,
    position: 0,
  };
}

const sender = (id: string, role: 'host' | 'listener', name: string, sticker: string | null) => ({
  id,
  role,
  quiz_score: 0,
  display_name: name,
  profile_picture: null,
  profile_sticker: sticker,
});

/** Three messages: the host's, another fan's (with a sticker when the party allows stickers) and the viewer's own. */
export function sampleMessages(party: Party, nowMs: number): ChatMessage[] {
  const sticker = party.frontend.visual?.stickers?.[0] ?? null;
  return [
    { id: 'preview-m1', timestamp_ms: nowMs - 90_000, seq_id: 1, type: 'message', sender: sender('preview-host', 'host', party.name.slice(0, 40) || 'Host', null), text: 'Hallo zusammen! Schön, dass ihr da seid.' },
    { id: 'preview-m2', timestamp_ms: nowMs - 60_000, seq_id: 2, type: 'message', sender: sender('preview-other', 'listener', 'Lena', sticker), text: 'Was für ein Sound!', sticker },
    { id: 'preview-m3', timestamp_ms: nowMs - 30_000, seq_id: 3, type: 'message', sender: sender(PREVIEW_FAN_ID, 'listener', 'Preview Fan', null), text: 'Bin dabei 🎧' },
  ];
}

/** The Player's timeline: the first track, a little way in, paused so nothing tries to play. */
export function sampleStatus(tracks: PartyTrack[], nowMs: number): PlayerStatus {
  const track = tracks[0] ?? sampleTrack();
  const { votes: _v, played: _p, position: _pos, ...plain } = track;
  return { track: plain, progress_ms: Math.min(42_000, track.duration_ms), is_paused: true, timestamp_ms: nowMs };
}
