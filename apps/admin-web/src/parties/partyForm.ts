/**
 * The party editor's values and their wire form. The form holds what the inputs show (local
 * date-times, strings); `toPutPartyBody` builds the protocol's `PutPartyBody` and the protocol's
 * schemas validate it, so the browser refuses what the server would, with the same words.
 */
import {
  FONTS,
  MUSIC_SERVICE_DEFAULT,
  PutPartyBody,
  PutTracksBody,
  START_ALLOWED_DEFAULT,
  type Font,
  type FrontendSettings,
  type Party,
  type PlayerService,
  type StartAllowed,
} from '@fanfare/protocol';
import type { z } from 'zod';

/** Default waiting-room lead time (spec 3: `partyIsWaitingRoomMinutes`, default 30). */
export const WAITING_ROOM_DEFAULT_MINUTES = 30;

export interface PartyFormValues {
  name: string;
  /** `YYYY-MM-DDTHH:mm` in the browser's time zone (an `<input type="datetime-local">`). */
  startsAt: string;
  /** Empty: open-ended. */
  endsAt: string;
  waitingRoomMinutes: number;
  autoStart: boolean;
  votingEnabled: boolean;
  loginRequired: boolean;
  startAllowed: StartAllowed;
  /** Digits, or empty for none. */
  wpPostId: string;
  musicType: 'album' | 'playlist';
  /** Empty: no music set yet. */
  musicId: string;
  musicService: PlayerService;
  primaryColor: string;
  backgroundColor: string;
  font: Font | '';
  dark: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** An ISO instant as the local `YYYY-MM-DDTHH:mm` a datetime-local input shows. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
/** A datetime-local value as an ISO instant; an unreadable value passes through so the schema refuses it. */
function fromLocalInput(local: string): string {
  const t = Date.parse(local);
  return Number.isNaN(t) ? local : new Date(t).toISOString();
}

export function emptyPartyValues(now: Date = new Date()): PartyFormValues {
  const start = new Date(now.getTime() + 24 * 3600_000);
  start.setMinutes(0, 0, 0);
  return {
    name: '',
    startsAt: toLocalInput(start.toISOString()),
    endsAt: '',
    waitingRoomMinutes: WAITING_ROOM_DEFAULT_MINUTES,
    autoStart: false,
    votingEnabled: true,
    loginRequired: true,
    startAllowed: START_ALLOWED_DEFAULT,
    wpPostId: '',
    musicType: 'album',
    musicId: '',
    musicService: MUSIC_SERVICE_DEFAULT,
    primaryColor: '',
    backgroundColor: '',
    font: '',
    dark: false,
  };
}

export function partyToValues(party: Party): PartyFormValues {
  const f = party.frontend;
  const v = f.visual ?? {};
  return {
    name: party.name,
    startsAt: toLocalInput(party.starts_at),
    endsAt: toLocalInput(party.ends_at),
    waitingRoomMinutes: f.partyIsWaitingRoomMinutes ?? WAITING_ROOM_DEFAULT_MINUTES,
    autoStart: party.auto_start,
    votingEnabled: party.voting_enabled,
    loginRequired: party.login_required,
    startAllowed: f.partyStartAllowed ?? START_ALLOWED_DEFAULT,
    wpPostId: party.wp_post_id === null ? '' : String(party.wp_post_id),
    musicType: party.music?.type ?? 'album',
    musicId: party.music?.id ?? '',
    musicService: party.music?.service ?? MUSIC_SERVICE_DEFAULT,
    primaryColor: v.primaryColor ?? '',
    backgroundColor: v.backgroundColor ?? '',
    font: v.font ?? '',
    dark: v.dark ?? false,
  };
}

/** Sets `key` of `obj` to `value`, or drops it when the input is empty (absent = the app's default). */
function setOrDrop<T extends object, K extends keyof T>(obj: T, key: K, value: T[K] | '' | undefined): void {
  if (value === '' || value === undefined) delete obj[key];
  else obj[key] = value as T[K];
}

/**
 * The `PUT /api/parties/{id}` body. Frontend settings this editor does not show (FAQ, modules,
 * stickers, images, legal…) are kept from `frontend` as they were.
 */
export function toPutPartyBody(values: PartyFormValues, frontend: FrontendSettings = {}): PutPartyBody {
  const visual = { ...(frontend.visual ?? {}) };
  setOrDrop(visual, 'primaryColor', values.primaryColor.trim());
  setOrDrop(visual, 'backgroundColor', values.backgroundColor.trim());
  setOrDrop(visual, 'font', values.font);
  visual.dark = values.dark;
  const wp = values.wpPostId.trim();
  return {
    name: values.name,
    starts_at: fromLocalInput(values.startsAt),
    ends_at: values.endsAt.trim() === '' ? null : fromLocalInput(values.endsAt),
    auto_start: values.autoStart,
    voting_enabled: values.votingEnabled,
    login_required: values.loginRequired,
    // A non-integer stays a number the schema refuses (`z.number().int()`), not a silent null.
    wp_post_id: wp === '' ? null : Number(wp),
    frontend: {
      ...frontend,
      partyIsWaitingRoomMinutes: values.waitingRoomMinutes,
      partyStartAllowed: values.startAllowed,
      visual,
    },
  } as PutPartyBody;
}

/** The `PUT /api/parties/{id}/tracks` body, or null while no album or playlist is chosen. */
export function toPutTracksBody(values: PartyFormValues): PutTracksBody | null {
  const id = values.musicId.trim();
  if (id === '') return null;
  return { type: values.musicType, id, service: values.musicService } as PutTracksBody;
}

/** Which form field shows an error found at a wire path of the body. */
const FIELD_OF_PATH: Record<string, keyof PartyFormValues> = {
  name: 'name',
  starts_at: 'startsAt',
  ends_at: 'endsAt',
  wp_post_id: 'wpPostId',
  'frontend.partyIsWaitingRoomMinutes': 'waitingRoomMinutes',
  'frontend.partyStartAllowed': 'startAllowed',
  'frontend.visual.primaryColor': 'primaryColor',
  'frontend.visual.backgroundColor': 'backgroundColor',
  'frontend.visual.font': 'font',
};

function collect(errors: Record<string, string>, issues: z.core.$ZodIssue[], map: (path: string) => string) {
  for (const issue of issues) {
    const key = map(issue.path.join('.'));
    errors[key] ??= issue.message;
  }
}

/** Mantine `validate`: the party body against `PutPartyBody`, the music against `PutTracksBody`. */
export function validatePartyValues(values: PartyFormValues, frontend: FrontendSettings = {}): Partial<Record<keyof PartyFormValues, string>> {
  const errors: Record<string, string> = {};
  if (values.name.trim() === '') errors.name = 'A party needs a name';
  const body = PutPartyBody.safeParse(toPutPartyBody(values, frontend));
  if (!body.success) collect(errors, body.error.issues, (p) => FIELD_OF_PATH[p] ?? p);
  const tracks = toPutTracksBody(values);
  if (tracks) {
    const music = PutTracksBody.safeParse(tracks);
    if (!music.success) collect(errors, music.error.issues, (p) => (p === 'id' ? 'musicId' : p === 'service' ? 'musicService' : p === 'type' ? 'musicType' : p));
  }
  return errors as Partial<Record<keyof PartyFormValues, string>>;
}

export const FONT_OPTIONS = FONTS;

/** Upcoming, live or ended, as the list groups parties. */
export type PartyPhase = 'upcoming' | 'live' | 'ended';
export function partyPhase(party: Pick<Party, 'status' | 'ends_at'>, now: number): PartyPhase {
  if (party.ends_at !== null && Date.parse(party.ends_at) <= now) return 'ended';
  if (party.status !== null) return 'live';
  return 'upcoming';
}
