import type { CampaignInstance, Player } from '@fanfare/campaign-sdk';
import type { CampaignService, PlaybackDevice, PlaybackTrack } from '@fanfare/protocol';
import type { PlayerControls, PlayerView } from './types.ts';

/**
 * The player of the page on the SDK's playback: the logged-in provider's player (Spotify-style
 * or Apple-style, or the mock in testing mode), else the HLS preview. Previous/next over the
 * campaign's tracks is the page's own for previews (the preview player plays one track at a time).
 */
export function createPlayerControls(c: CampaignInstance, tracks: PlaybackTrack[], service: CampaignService | null): PlayerControls {
  const store = c.playback.store;
  const ids = tracks.map((t) => t.id);
  const byId = new Map(tracks.map((t) => [t.id, t]));
  let kind: PlayerView['kind'] = service ? 'provider' : 'preview';
  let devices: PlaybackDevice[] = [];
  let activeDeviceId: string | null = null;
  let view: PlayerView = { kind, state: store.state, devices, activeDeviceId };
  const listeners = new Set<() => void>();
  const changed = () => {
    view = { kind, state: store.state, devices, activeDeviceId };
    for (const l of listeners) l();
  };
  const offStore = store.subscribe(changed);

  // The provider player is built once per login; a page without the provider's SDK plays previews.
  let providerPlayer: Promise<Player> | null = service
    ? c.playback.loadPlayer(service).catch((err: unknown) => {
        console.warn('Provider player unavailable, playing previews', err);
        kind = 'preview';
        providerPlayer = null;
        changed();
        return c.playback.preview();
      })
    : null;
  const player = (): Promise<Player> => providerPlayer ?? Promise.resolve(c.playback.preview());

  // Counts the fan's device choices: a device list requested before the latest choice answers
  // with the old active device and must not move the picker back.
  let choices = 0;
  const showActive = (deviceId: string | null) => {
    activeDeviceId = deviceId;
    devices = devices.map((d) => ({ ...d, isActive: d.id === deviceId }));
    changed();
  };
  const refreshDevices = async () => {
    const p = await player();
    if (!p.devices) return;
    const asked = choices;
    const listed = await p.devices();
    devices = listed;
    if (asked !== choices) return showActive(activeDeviceId);
    activeDeviceId = listed.find((d) => d.isActive)?.id ?? activeDeviceId ?? listed[0]?.id ?? null;
    changed();
  };

  const playIndex = async (index: number) => {
    const id = ids[(index + ids.length) % ids.length];
    if (!id) return;
    const p = await player();
    if (p.kind === 'preview') {
      const started = p.play({ type: 'track', id });
      // The preview player does not know track names: the page does.
      store.update({ currentTrack: byId.get(id) ?? null });
      await started;
    } else {
      await p.play({ type: 'tracks', ids, offset: ids.indexOf(id), ...(activeDeviceId ? { deviceId: activeDeviceId } : {}) });
    }
  };
  const currentIndex = () => ids.indexOf(store.state.currentTrack?.id ?? '');

  if (service) void refreshDevices().catch(() => undefined);

  return {
    playTrack: (id) => playIndex(ids.indexOf(id)),
    async toggle() {
      const p = await player();
      if (store.state.isPaused) await p.play();
      else await p.pause();
    },
    async next() {
      const p = await player();
      if (p.kind === 'preview') await playIndex(currentIndex() + 1);
      else await p.next();
    },
    async previous() {
      const p = await player();
      if (p.kind === 'preview') await playIndex(Math.max(0, currentIndex()) - 1);
      else await p.previous();
    },
    async setVolume(fraction) {
      await (await player()).setVolume(Math.min(1, Math.max(0, fraction)));
    },
    async transfer(deviceId) {
      const p = await player();
      if (!p.transfer) return;
      // The picker shows the choice at once, and goes back if the provider refuses it.
      const previous = activeDeviceId;
      choices++;
      showActive(deviceId);
      try {
        await p.transfer(deviceId, true);
      } catch (err) {
        if (activeDeviceId === deviceId) showActive(previous);
        throw err;
      }
    },
    refreshDevices,
    getSnapshot: () => view,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    destroy() {
      offStore();
      listeners.clear();
      void player()
        .then((p) => p.pause())
        .catch(() => undefined);
    },
  };
}
