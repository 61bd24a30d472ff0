/**
 * The party preview bridge (issue 14; spec `listening-party.md` section 2, "The admin flag lets
 * the editor preview"): `postMessage` frames between the back office's party editor and the party
 * app it embeds in a frame with `?admin=true&preview=1`. The editor sends the party as it holds it
 * (unsaved) and the screen to show; the app renders that screen with those settings and answers
 * `rendered`. Both sides parse every frame with these schemas and check the sender's origin
 * against their allowed list; `event.data` is never trusted.
 *
 * App → editor: `ready` (the app has initialised and listens), `rendered` (a preview is on screen).
 * Editor → app: `preview` (party, tracks and screen).
 *
 * Also the editor's vocabulary of the frontend settings the party app understands (page modules,
 * header elements, FAQ pages), so the editor offers exactly the names the app renders.
 */
import { z } from 'zod';
import { NonNegativeInt } from '../common.ts';
import { Party, PartyTrack } from './entities.ts';

/** Marks our frames, so messages of extensions or dev tools are told apart. */
export const PARTY_PREVIEW_CHANNEL = 'fanfare-party-preview';

/** Query flag (with `admin=true`) that puts the party app in preview mode: no socket, no player, a sample fan. */
export const PARTY_PREVIEW_PARAM = 'preview';

/** The screens the editor previews (spec 2). */
export const PARTY_PREVIEW_SCREENS = ['pre', 'waiting', 'player', 'end'] as const;
export const PartyPreviewScreen = z.enum(PARTY_PREVIEW_SCREENS);
export type PartyPreviewScreen = z.infer<typeof PartyPreviewScreen>;

/** Most tracks a preview frame carries (a playlist may be long; the preview shows the first ones). */
export const PARTY_PREVIEW_TRACKS_MAX = 200;

/** Modules the Waiting screen renders, in the order the editor offers them (`pageModulesWaiting`). */
export const WAITING_PAGE_MODULES = ['countdown', 'tracks', 'newsletter', 'faq'] as const;
/** Modules the End screen renders (`pageModulesEnd`). */
export const END_PAGE_MODULES = ['thanks', 'follow', 'newsletter'] as const;
/** Elements the header renders (`visual.headerElements`). */
export const HEADER_ELEMENTS = ['logo', 'title', 'image'] as const;
/** Page names an FAQ entry can be filtered by (besides `All`): the party app's routes. */
export const FAQ_PAGES = ['home', 'pre', 'service', 'register', 'waiting', 'player', 'end'] as const;

const envelope = { channel: z.literal(PARTY_PREVIEW_CHANNEL) };

/** Editor → app: show `screen` of `party` (as the editor holds it, saved or not) with `tracks`. */
export const PartyPreviewShow = z.strictObject({
  ...envelope,
  type: z.literal('preview'),
  /** Increases with every frame the editor sends; `rendered` repeats it. */
  revision: NonNegativeInt,
  screen: PartyPreviewScreen,
  party: Party,
  tracks: z.array(PartyTrack).max(PARTY_PREVIEW_TRACKS_MAX),
});
export type PartyPreviewShow = z.infer<typeof PartyPreviewShow>;

/** Every frame the editor sends the app. */
export const PartyPreviewToApp = z.discriminatedUnion('type', [PartyPreviewShow]);
export type PartyPreviewToApp = z.infer<typeof PartyPreviewToApp>;

/** App → editor: the app has initialised and listens for `preview` frames. */
export const PartyPreviewReady = z.strictObject({ ...envelope, type: z.literal('ready') });
/** App → editor: the preview of `revision` is on screen. */
export const PartyPreviewRendered = z.strictObject({ ...envelope, type: z.literal('rendered'), revision: NonNegativeInt, screen: PartyPreviewScreen });

/** Every frame the app sends the editor. */
export const PartyPreviewFromApp = z.discriminatedUnion('type', [PartyPreviewReady, PartyPreviewRendered]);
export type PartyPreviewFromApp = z.infer<typeof PartyPreviewFromApp>;
