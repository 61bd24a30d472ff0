import type { FrontendSettings, MusicOptions } from '@fanfare/protocol';
import { DEFAULT_STICKERS, WAITING_ROOM_DEFAULT_MINUTES } from '@fanfare/protocol';
import type { ServerContext } from '../context.ts';
import { seedDemoCampaign } from '../cms/demoCampaign.ts';
import { seedDemoFunnel } from '../cms/funnel/demoFunnel.ts';
import { catalogTracks, storeTracks } from '../party/timeline/tracks.ts';
import { DEMO_FANS } from '../providers/emulators/demoFans.ts';
import { createGrant } from '../party/grants/service.ts';

/** The emulators' "Hanna (Host)": the demo party's host (issue 15), so a newcomer can start it. */
export const DEMO_HOST_HINT = 'host-hanna';

export const DEMO_PARTY_ID = 'demo';

/**
 * The demo party of a fresh install: login required, the first demo album, auto start a few
 * minutes after start-up so the waiting room is open at once. Re-seeded on every start while it
 * has not been edited or started, so the countdown always begins from now; once it has ended it
 * starts over (its signups, votes and chat go with it), so a later `npm start` is not stuck on End.
 */
/** The demo party's FAQ: what a first-time fan asks, shown on every page and service. */
const DEMO_FAQ: FrontendSettings['faq'] = [
  {
    question: 'How does the listening party work?',
    answer: '<p>Everyone hears the album at the same moment. Chat, react and vote on what plays next while it runs.</p>',
    locations: [{ page: 'All', service: 'All' }],
  },
  {
    question: 'Do I need Spotify Premium?',
    answer: '<p>Premium plays the full tracks in sync. Without it you can still chat, vote and play the quiz.</p>',
    locations: [{ page: 'All', service: 'All' }],
  },
  {
    question: 'The music is out of sync. What can I do?',
    answer: '<p>Reload the page: the player joins the party clock again within a second.</p>',
    locations: [{ page: 'player', service: 'All' }],
  },
];

export async function seedDemo(ctx: ServerContext): Promise<void> {
  await seedDemoCampaign(ctx, DEMO_PARTY_ID);
  await seedDemoFunnel(ctx);
  const now = ctx.now();
  const album = ctx.catalog.albums[0];
  if (!album) throw new Error('The demo catalog has no album');
  let existing = await ctx.db
    .selectFrom('parties')
    .select(['created_at', 'updated_at', 'started_at', 'ends_at'])
    .where('id', '=', DEMO_PARTY_ID)
    .executeTakeFirst();
  if (existing && existing.ends_at !== null && existing.ends_at <= now) {
    // Starts over with a fresh timeline, countdown and votes. The fans' signups and the chat stay
    // (issue 15): nobody has to register again, and the conversation is still there.
    await ctx.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('party_playback').where('party_id', '=', DEMO_PARTY_ID).execute();
      await trx.deleteFrom('track_votes').where('party_id', '=', DEMO_PARTY_ID).execute();
      await trx.deleteFrom('party_vote_log').where('party_id', '=', DEMO_PARTY_ID).execute();
      await trx.updateTable('party_tracks').set({ played: 0 }).where('party_id', '=', DEMO_PARTY_ID).execute();
      await trx.updateTable('parties').set({ started_at: null, updated_at: existing!.created_at }).where('id', '=', DEMO_PARTY_ID).execute();
    });
    existing = { ...existing, started_at: null, updated_at: existing.created_at };
  }
  if (existing && (existing.updated_at !== existing.created_at || existing.started_at !== null)) return grantDemoHost(ctx);

  const startsAt = now + ctx.config.demo.startDelayMs;
  const music: MusicOptions = { type: 'album', id: album.spotify_id, service: 'spotify', country: 'de', url: null };
  const frontend: FrontendSettings = {
    competitionIsEnabled: false,
    partyIsWaitingRoomMinutes: WAITING_ROOM_DEFAULT_MINUTES,
    partyStartAllowed: 'host',
    visual: { dark: true, primaryColor: '#ff5a36', backgroundColor: '#14142b', font: 'poppins', stickers: [...DEFAULT_STICKERS] },
    faq: DEMO_FAQ,
  };
  const row = {
    id: DEMO_PARTY_ID,
    name: `${album.name}: listening party`,
    created_at: now,
    updated_at: now,
    started_at: null,
    starts_at: startsAt,
    ends_at: startsAt + 2 * 3600_000,
    voting_enabled: 1,
    auto_start: 1,
    wp_post_id: null,
    login_required: 1,
    frontend: JSON.stringify(frontend),
    follow: '[]',
    music: JSON.stringify(music),
  };
  if (existing) {
    await ctx.db.updateTable('parties').set({ ...row, created_at: now }).where('id', '=', DEMO_PARTY_ID).execute();
  } else {
    await ctx.db.insertInto('parties').values(row).execute();
  }
  // The album's tracks from the catalog (no provider call: the listeners are not up yet), so the
  // demo party plays on a fresh start.
  await storeTracks(ctx, DEMO_PARTY_ID, catalogTracks(ctx, ctx.catalog.albumTracks(album), 'spotify'), music, []);
  await grantDemoHost(ctx);
}

/** Makes the demo host account the demo party's host, unless that account has a grant there already. */
async function grantDemoHost(ctx: ServerContext): Promise<void> {
  const hanna = DEMO_FANS.find((f) => f.hint === DEMO_HOST_HINT);
  const party = await ctx.db.selectFrom('parties').select('id').where('id', '=', DEMO_PARTY_ID).executeTakeFirst();
  if (!hanna || !party) return;
  const grant = await ctx.db
    .selectFrom('grants')
    .select('id')
    .where('party_id', '=', DEMO_PARTY_ID)
    .where('service', '=', 'spotify')
    .where('service_id', '=', hanna.spotifyId)
    .executeTakeFirst();
  if (grant) return;
  await createGrant(ctx.db, DEMO_PARTY_ID, { service: 'spotify', service_id: hanna.spotifyId, role: 'host', display_name: hanna.displayName }, ctx.now());
}
