/**
 * The party editor's values and their wire form. The form holds what the inputs show (local
 * date-times, strings, per-service follow fields); `toPutPartyBody` builds the protocol's
 * `PutPartyBody` and the protocol's schemas validate it, so the browser refuses what the server
 * would, with the same words. `toPreviewParty` builds the party the preview shows before saving.
 */
import {
  FONTS,
  WAITING_ROOM_DEFAULT_MINUTES,
  LOGIN_SERVICES,
  MUSIC_SERVICE_DEFAULT,
  DEFAULT_COUNTRY,
  END_PAGE_MODULES,
  PutPartyBody,
  PutTracksBody,
  START_ALLOWED_DEFAULT,
  WAITING_PAGE_MODULES,
  type FaqEntry,
  type FollowEntryInput,
  type Font,
  type FrontendSettings,
  type LoginService,
  type Party,
  type PlayerService,
  type StartAllowed,
  type VisualSettings,
} from '@fanfare/protocol';
import type { z } from 'zod';

/** The colour settings of `visual` (spec 3), in the order the editor shows them. */
export const VISUAL_COLOR_KEYS = [
  'primaryColor',
  'backgroundColor',
  'artistHeaderBackground',
  'artistProfileBackground',
  'supportHeaderBackground',
  'supportProfileBackground',
  'userHeaderBackground',
  'userProfileBackground',
  'ownHeaderBackground',
  'ownProfileBackground',
] as const;
export type VisualColorKey = (typeof VISUAL_COLOR_KEYS)[number];

/** The image settings of `visual` (spec 3: music, header, radio, phone and logo). */
export const VISUAL_IMAGE_KEYS = ['musicImage', 'headerImage', 'radioImage', 'phoneImage', 'logoImage'] as const;
export type VisualImageKey = (typeof VISUAL_IMAGE_KEYS)[number];

/** What the visual inputs show; an empty string is "the app's default" and is not sent. */
export type VisualValues = Record<VisualColorKey | VisualImageKey, string> & {
  font: Font | '';
  stickerBackground: string;
  stickers: string[];
  headerElements: string[];
  dark: boolean;
  hideStartPageGraphs: boolean;
};

/** The follow editor of one service: one album, one playlist, any number of artists. */
export interface FollowValues {
  album: string;
  playlist: string;
  artists: string[];
}

export interface FaqValues {
  question: string;
  answer: string;
  /** Empty: no image. */
  image: string;
  locations: { page: string; service: string }[];
}

export interface PartyFormValues {
  name: string;
  /** `YYYY-MM-DDTHH:mm` in the browser's time zone (an `<input type="datetime-local">`). */
  startsAt: string;
  /** Empty: open-ended. */
  endsAt: string;
  waitingRoomMinutes: number;
  /** Listeners read but do not write in the waiting room until the start (hosts and admins do). */
  waitingRoomReadOnly: boolean;
  /** Fans whose provider cannot play in the browser hear the label stream (else 30 s previews). */
  labelStreamFallback: boolean;
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
  musicCountry: string;
  /** Track ids of the album or playlist the party leaves out. */
  excluded: string[];
  follow: Record<LoginService, FollowValues>;
  competitionIsEnabled: boolean;
  pageModulesWaiting: string[];
  pageModulesEnd: string[];
  faq: FaqValues[];
  visual: VisualValues;
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

function visualToValues(v: VisualSettings = {}): VisualValues {
  const values = {} as Record<VisualColorKey | VisualImageKey, string>;
  for (const k of [...VISUAL_COLOR_KEYS, ...VISUAL_IMAGE_KEYS]) values[k] = v[k] ?? '';
  return {
    ...values,
    font: v.font ?? '',
    stickerBackground: v.stickerBackground ?? '',
    stickers: v.stickers ?? [],
    headerElements: v.headerElements ?? [],
    // The party app's default is dark (its theme reads `dark ?? true`).
    dark: v.dark ?? true,
    hideStartPageGraphs: v.hideStartPageGraphs ?? false,
  };
}

const emptyFollow = (): Record<LoginService, FollowValues> => ({ spotify: { album: '', playlist: '', artists: [] }, apple: { album: '', playlist: '', artists: [] } });

/** The stored follow list as the per-service editor shows it (spec 3: album, playlist, artists per service). */
export function followToValues(follow: readonly FollowEntryInput[]): Record<LoginService, FollowValues> {
  const values = emptyFollow();
  for (const f of follow) {
    const v = values[f.service];
    if (f.type === 'artist') v.artists.push(f.id);
    else v[f.type] = f.id;
  }
  return values;
}

/** The follow list sent to the server: entries with an empty id are dropped (spec 3). */
export function followFromValues(values: Record<LoginService, FollowValues>): FollowEntryInput[] {
  const out: FollowEntryInput[] = [];
  for (const service of LOGIN_SERVICES) {
    const v = values[service];
    const add = (type: FollowEntryInput['type'], id: string) => {
      const trimmed = id.trim();
      if (trimmed !== '') out.push({ type, service, id: trimmed });
    };
    add('album', v.album);
    add('playlist', v.playlist);
    for (const a of v.artists) add('artist', a);
  }
  return out;
}

function faqToValues(faq: readonly FaqEntry[] = []): FaqValues[] {
  return faq.map((f) => ({ question: f.question, answer: f.answer, image: f.image ?? '', locations: f.locations.map((l) => ({ ...l })) }));
}

export function emptyPartyValues(now: Date = new Date()): PartyFormValues {
  const start = new Date(now.getTime() + 24 * 3600_000);
  start.setMinutes(0, 0, 0);
  return {
    name: '',
    startsAt: toLocalInput(start.toISOString()),
    endsAt: '',
    waitingRoomMinutes: WAITING_ROOM_DEFAULT_MINUTES,
    waitingRoomReadOnly: false,
    labelStreamFallback: true,
    autoStart: false,
    votingEnabled: true,
    loginRequired: true,
    startAllowed: START_ALLOWED_DEFAULT,
    wpPostId: '',
    musicType: 'album',
    musicId: '',
    musicService: MUSIC_SERVICE_DEFAULT,
    musicCountry: DEFAULT_COUNTRY,
    excluded: [],
    follow: emptyFollow(),
    competitionIsEnabled: false,
    pageModulesWaiting: ['countdown', 'tracks', 'faq'],
    pageModulesEnd: ['thanks', 'follow', 'newsletter'],
    faq: [],
    visual: visualToValues({}),
  };
}

export function partyToValues(party: Party, excluded: string[] = []): PartyFormValues {
  const f = party.frontend;
  return {
    name: party.name,
    startsAt: toLocalInput(party.starts_at),
    endsAt: toLocalInput(party.ends_at),
    waitingRoomMinutes: f.partyIsWaitingRoomMinutes ?? WAITING_ROOM_DEFAULT_MINUTES,
    waitingRoomReadOnly: f.waitingRoomReadOnly ?? false,
    labelStreamFallback: f.labelStreamFallback ?? true,
    autoStart: party.auto_start,
    votingEnabled: party.voting_enabled,
    loginRequired: party.login_required,
    startAllowed: f.partyStartAllowed ?? START_ALLOWED_DEFAULT,
    wpPostId: party.wp_post_id === null ? '' : String(party.wp_post_id),
    musicType: party.music?.type ?? 'album',
    musicId: party.music?.id ?? '',
    musicService: party.music?.service ?? MUSIC_SERVICE_DEFAULT,
    musicCountry: party.music?.country ?? DEFAULT_COUNTRY,
    excluded,
    follow: followToValues(party.follow),
    competitionIsEnabled: f.competitionIsEnabled ?? false,
    // Absent lists mean the app's defaults: the editor shows those, so what it shows is what fans see.
    pageModulesWaiting: f.pageModulesWaiting ?? ['countdown', 'tracks', 'faq'],
    pageModulesEnd: f.pageModulesEnd ?? ['thanks', 'follow', 'newsletter'],
    faq: faqToValues(f.faq),
    visual: visualToValues(f.visual),
  };
}

/** The visual settings to send: empty inputs dropped (the app's defaults). */
export function visualFromValues(values: VisualValues, stored: VisualSettings = {}): VisualSettings {
  const visual: Record<string, unknown> = { ...stored };
  for (const k of [...VISUAL_COLOR_KEYS, ...VISUAL_IMAGE_KEYS, 'stickerBackground'] as const) {
    const v = values[k].trim();
    if (v === '') delete visual[k];
    else visual[k] = v;
  }
  if (values.font === '') delete visual.font;
  else visual.font = values.font;
  visual.stickers = [...values.stickers];
  if (values.headerElements.length === 0) delete visual.headerElements;
  else visual.headerElements = [...values.headerElements];
  visual.dark = values.dark;
  visual.hideStartPageGraphs = values.hideStartPageGraphs;
  return visual as VisualSettings;
}

/** The frontend settings to send: what the editor shows, over what it does not (legal pages, slow mode…). */
export function frontendFromValues(values: PartyFormValues, stored: FrontendSettings = {}): FrontendSettings {
  return {
    ...stored,
    competitionIsEnabled: values.competitionIsEnabled,
    pageModulesWaiting: [...values.pageModulesWaiting],
    pageModulesEnd: [...values.pageModulesEnd],
    partyIsWaitingRoomMinutes: values.waitingRoomMinutes,
    waitingRoomReadOnly: values.waitingRoomReadOnly,
    labelStreamFallback: values.labelStreamFallback,
    partyStartAllowed: values.startAllowed,
    faq: values.faq.map((f) => ({ question: f.question, answer: f.answer, ...(f.image.trim() ? { image: f.image.trim() } : {}), locations: f.locations.map((l) => ({ ...l })) })),
    visual: visualFromValues(values.visual, stored.visual),
  };
}

/** The `PUT /api/parties/{id}` body. */
export function toPutPartyBody(values: PartyFormValues, frontend: FrontendSettings = {}): PutPartyBody {
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
    frontend: frontendFromValues(values, frontend),
    follow: followFromValues(values.follow),
  } as PutPartyBody;
}

/** The `PUT /api/parties/{id}/tracks` body, or null while no album or playlist is chosen. */
export function toPutTracksBody(values: PartyFormValues): PutTracksBody | null {
  const id = values.musicId.trim();
  if (id === '') return null;
  return { type: values.musicType, id, service: values.musicService, country: values.musicCountry.trim().toLowerCase(), excluded: [...values.excluded] } as PutTracksBody;
}

/**
 * The party as the preview shows it: the stored party (or a new one) with the unsaved values.
 * Values the schema would refuse fall back to the stored ones, so a half-typed colour never
 * reaches the party app.
 */
export function toPreviewParty(id: string, values: PartyFormValues, stored: Party | null, nowIso: string = new Date().toISOString()): Party {
  const body = PutPartyBody.safeParse(toPutPartyBody(values, stored?.frontend ?? {}));
  const base: Party = stored ?? {
    id,
    name: values.name || id,
    created_at: nowIso,
    updated_at: nowIso,
    started_at: null,
    starts_at: nowIso,
    ends_at: null,
    voting_enabled: values.votingEnabled,
    auto_start: values.autoStart,
    wp_post_id: null,
    frontend: {},
    follow: [],
    login_required: values.loginRequired,
    status: null,
    music: null,
    is_playable: false,
  };
  if (!body.success) return base;
  const b = body.data;
  return {
    ...base,
    name: b.name ?? base.name,
    starts_at: b.starts_at ?? base.starts_at,
    ends_at: b.ends_at === undefined ? base.ends_at : b.ends_at,
    voting_enabled: b.voting_enabled ?? base.voting_enabled,
    auto_start: b.auto_start ?? base.auto_start,
    login_required: b.login_required ?? base.login_required,
    wp_post_id: b.wp_post_id === undefined ? base.wp_post_id : b.wp_post_id,
    frontend: b.frontend ?? base.frontend,
    follow: (b.follow ?? []).filter((f) => f.id !== '') as Party['follow'],
  };
}

/** Which form field shows an error found at a wire path of the body. */
function fieldOfPath(path: string): string {
  const direct: Record<string, string> = {
    starts_at: 'startsAt',
    ends_at: 'endsAt',
    wp_post_id: 'wpPostId',
    'frontend.partyIsWaitingRoomMinutes': 'waitingRoomMinutes',
    'frontend.partyStartAllowed': 'startAllowed',
    'frontend.waitingRoomReadOnly': 'waitingRoomReadOnly',
    'frontend.labelStreamFallback': 'labelStreamFallback',
  };
  if (direct[path]) return direct[path];
  if (path.startsWith('frontend.')) return path.slice('frontend.'.length);
  if (path.startsWith('follow')) return 'follow';
  return path;
}

function collect(errors: Record<string, string>, issues: z.core.$ZodIssue[], map: (path: string) => string) {
  for (const issue of issues) {
    const key = map(issue.path.join('.'));
    errors[key] ??= issue.message;
  }
}

const TRACK_FIELDS: Record<string, string> = { id: 'musicId', service: 'musicService', type: 'musicType', country: 'musicCountry', excluded: 'excluded' };

/** Mantine `validate`: the party body against `PutPartyBody`, the music against `PutTracksBody`. */
export function validatePartyValues(values: PartyFormValues, frontend: FrontendSettings = {}): Record<string, string> {
  const errors: Record<string, string> = {};
  if (values.name.trim() === '') errors.name = 'A party needs a name';
  const body = PutPartyBody.safeParse(toPutPartyBody(values, frontend));
  if (!body.success) collect(errors, body.error.issues, fieldOfPath);
  const tracks = toPutTracksBody(values);
  if (tracks) {
    const music = PutTracksBody.safeParse(tracks);
    if (!music.success) collect(errors, music.error.issues, (p) => TRACK_FIELDS[p.split('.')[0]!] ?? p);
  }
  return errors;
}

export const FONT_OPTIONS = FONTS;
export { END_PAGE_MODULES, WAITING_PAGE_MODULES };

/** Upcoming, live or ended, as the list groups parties. */
export type PartyPhase = 'upcoming' | 'live' | 'ended';
export function partyPhase(party: Pick<Party, 'status' | 'ends_at'>, now: number): PartyPhase {
  if (party.ends_at !== null && Date.parse(party.ends_at) <= now) return 'ended';
  if (party.status !== null) return 'live';
  return 'upcoming';
}
