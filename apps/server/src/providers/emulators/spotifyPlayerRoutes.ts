/**
 * The emulator's Web API player endpoints (campaign spec §7): every command validated, answered
 * 204 like Spotify's, errors in Spotify's `{ error: { status, message } }` shape.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CatalogTrack } from '../catalog/catalog.ts';
import type * as W from '../spotify/webApi.ts';
import type { DemoFan } from './demoFans.ts';
import { PlayerError, REPEAT_STATES, type EmulatedPlayers } from './spotifyPlayerState.ts';

const DeviceQuery = z.object({ device_id: z.string().min(1).max(100).optional() });
const SpotifyUri = z.string().max(200).regex(/^spotify:(track|album|playlist):[A-Za-z0-9]{1,64}$/);
const PlayBody = z
  .strictObject({
    context_uri: SpotifyUri.optional(),
    uris: z.array(SpotifyUri).max(500).optional(),
    offset: z.strictObject({ position: z.number().int().nonnegative().optional(), uri: SpotifyUri.optional() }).optional(),
    position_ms: z.number().int().nonnegative().optional(),
  })
  .refine((b) => !(b.context_uri && b.uris), { message: 'Give context_uri or uris, not both' });
const intParam = (min: number, max: number) => z.string().regex(/^\d{1,10}$/).transform(Number).pipe(z.number().int().min(min).max(max));
const SeekQuery = DeviceQuery.extend({ position_ms: intParam(0, 86_400_000) });
const VolumeQuery = DeviceQuery.extend({ volume_percent: intParam(0, 100) });
const ShuffleQuery = DeviceQuery.extend({ state: z.enum(['true', 'false']) });
const RepeatQuery = DeviceQuery.extend({ state: z.enum(REPEAT_STATES) });
const TransferBody = z.strictObject({ device_ids: z.array(z.string().min(1).max(100)).length(1), play: z.boolean().optional() });

type FanOf = (req: FastifyRequest) => DemoFan | null;

function parse<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new PlayerError(400, `Invalid ${where}: ${r.error.issues.map((i) => `${i.path.join('.') || where}: ${i.message}`).join('; ')}`);
  return r.data;
}

export function registerPlayerRoutes(api: FastifyInstance, players: EmulatedPlayers, fanOf: FanOf, fullTrack: (t: CatalogTrack) => W.FullTrack): void {
  /** Runs a player command for the calling fan: 204, or the command's Spotify-style error. */
  const command =
    (run: (fan: DemoFan, req: FastifyRequest) => void) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const fan = fanOf(req);
      if (!fan) return reply.status(401).send({ error: { status: 401, message: 'User token required' } });
      try {
        // Spotify's player API is for Premium accounts only.
        if (!fan.premium) throw new PlayerError(403, 'Player command failed: Premium required', 'PREMIUM_REQUIRED');
        run(fan, req);
        return reply.status(204).send();
      } catch (err) {
        if (err instanceof PlayerError) return reply.status(err.status).send(err.body);
        throw err;
      }
    };
  const device = (req: FastifyRequest) => parse(DeviceQuery, req.query, 'query').device_id;

  api.get('/me/player/devices', async (req, reply) => {
    const fan = fanOf(req);
    if (!fan) return reply.status(401).send({ error: { status: 401, message: 'User token required' } });
    return { devices: players.devices(fan.hint) };
  });
  api.get('/me/player', async (req, reply) => {
    const fan = fanOf(req);
    if (!fan) return reply.status(401).send({ error: { status: 401, message: 'User token required' } });
    const s = players.state(fan.hint);
    if (!s) return reply.status(204).send();
    const { track, ...rest } = s;
    return { ...rest, item: track ? fullTrack(track) : null, currently_playing_type: 'track', timestamp: Date.now() };
  });
  api.put(
    '/me/player/play',
    command((fan, req) => players.play(fan.hint, device(req), req.body === undefined || req.body === null ? null : parse(PlayBody, req.body, 'body'))),
  );
  api.put('/me/player/pause', command((fan, req) => players.pause(fan.hint, device(req))));
  api.put(
    '/me/player/seek',
    command((fan, req) => {
      const q = parse(SeekQuery, req.query, 'query');
      players.seek(fan.hint, q.position_ms, q.device_id);
    }),
  );
  api.post('/me/player/next', command((fan, req) => players.skip(fan.hint, 1, device(req))));
  api.post('/me/player/previous', command((fan, req) => players.skip(fan.hint, -1, device(req))));
  api.put(
    '/me/player/volume',
    command((fan, req) => {
      const q = parse(VolumeQuery, req.query, 'query');
      players.volume(fan.hint, q.volume_percent, q.device_id);
    }),
  );
  api.put(
    '/me/player/shuffle',
    command((fan, req) => {
      const q = parse(ShuffleQuery, req.query, 'query');
      players.shuffle(fan.hint, q.state === 'true', q.device_id);
    }),
  );
  api.put(
    '/me/player/repeat',
    command((fan, req) => {
      const q = parse(RepeatQuery, req.query, 'query');
      players.repeat(fan.hint, q.state, q.device_id);
    }),
  );
  api.put(
    '/me/player',
    command((fan, req) => {
      const b = parse(TransferBody, req.body, 'body');
      players.transfer(fan.hint, b.device_ids[0]!, b.play);
    }),
  );
}
