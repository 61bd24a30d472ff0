import { useEffect, useRef, useState } from 'react';
import { useServices } from '../app/context.tsx';
import { ApplePlayer } from '../player/applePlayer.ts';
import { PlayerController } from '../player/controller.ts';
import { HlsPlayer } from '../player/hlsPlayer.ts';
import { MockPlayer } from '../player/mockPlayer.ts';
import { PreviewPlayer } from '../player/previewPlayer.ts';
import { canSetVolume, chooseSource, detectEme, providerBlocker, type SourceChoice } from '../player/select.ts';
import { SpotifyPlayer } from '../player/spotifyPlayer.ts';
import { INITIAL_PLAYBACK, type PlaybackState, type PlayerAdapter, type PlayerKind } from '../player/types.ts';
import { loadPlaybackSdk, PLAYER_NAME, SPOTIFY_API_URL } from '../player/playbackSdk.ts';

/** `?player=mock` in the page or route query selects the timeline-only player (tests, demos). */
function forcedPlayer(): PlayerKind | null {
  const query = new URLSearchParams(window.location.search || window.location.hash.split('?')[1] || '');
  return query.get('player') === 'mock' ? 'mock' : null;
}

/**
 * Creates the player service for the Player screen (spec 4: initialised once, only when
 * authenticated) and wires it into the services so socket events reach it.
 */
export function usePlayer(audio: React.RefObject<HTMLAudioElement | null>, enabled: boolean) {
  const services = useServices();
  const [playback, setPlayback] = useState<PlaybackState>(INITIAL_PLAYBACK);
  const [kind, setKind] = useState<PlayerKind | null>(null);
  /** What the fan hears and why (issue 47), and whether the current preview clip has ended. */
  const [source, setSource] = useState<SourceChoice | null>(null);
  const [isPreviewEnded, setPreviewEnded] = useState(false);
  const created = useRef(false);

  useEffect(() => {
    if (!enabled || created.current || !audio.current) return;
    created.current = true;
    const { store } = services;
    const element = audio.current;
    let controller: PlayerController | null = null;
    let unsubscribe = () => {};
    let isCancelled = false;
    void (async () => {
      const s = store.getState();
      const userService = s.user?.service ?? s.service;
      const forced = forcedPlayer();
      const sdks = forced ? { spotify: null, musicKit: null, spotifyApiUrl: SPOTIFY_API_URL } : await loadPlaybackSdk(userService);
      if (isCancelled) return;
      const firstTrack = s.status?.track ?? s.tracks[0] ?? null;
      const input = {
        party: s.party,
        userService,
        isPremium: s.user?.premium ?? true,
        hasSpotifySdk: !!sdks.spotify,
        hasMusicKit: !!sdks.musicKit,
        canSetVolume: canSetVolume(element),
        trackHasHls: firstTrack ? !!firstTrack.hls_url : true,
        forced,
      };
      // EME is asked only when nothing else already rules the provider out (the check is async).
      const hasEme = input.forced || input.party?.music?.service === 'umg_hls' || providerBlocker(input) ? true : await detectEme();
      if (isCancelled) return;
      const choice = chooseSource({ ...input, hasEme });
      setSource(choice);
      let adapter: PlayerAdapter;
      if (choice.kind === 'spotify' && sdks.spotify) adapter = new SpotifyPlayer({ sdk: sdks.spotify, token: () => store.getState().serviceToken, apiUrl: sdks.spotifyApiUrl, name: PLAYER_NAME });
      else if (choice.kind === 'apple' && sdks.musicKit) adapter = new ApplePlayer(sdks.musicKit);
      else if (choice.kind === 'umg_hls') adapter = new HlsPlayer(element);
      else adapter = new MockPlayer();
      if (choice.source === 'preview') adapter = new PreviewPlayer(adapter, setPreviewEnded);
      setKind(adapter.kind);
      // iOS Safari ignores the page's volume: no volume control there.
      unsubscribe = adapter.onState((st) => setPlayback(input.canSetVolume ? st : { ...st, supportsVolume: false }));
      controller = new PlayerController({
        adapter,
        status: () => store.getState().status,
        clockOffsetMs: () => store.getState().clockOffsetMs,
        onMediaError: () => store.getState().setMediaError(),
        onManualPause: (manualPause) => store.getState().setManualPause(manualPause),
        onCatchingUp: (isCatchingUp) => store.getState().setCatchingUp(isCatchingUp),
        onOffset: (offsetMs) => {
          if (store.getState().offsetMs !== offsetMs) store.getState().setOffset(offsetMs);
        },
      });
      controller.sourceReport = { source: choice.source, reason: choice.reason };
      services.attachPlayer(controller);
      services.live?.reportSource(controller.sourceReport);
      void controller.play().catch(() => undefined);
      // Keeps correcting small errors for as long as the player lives (issue 16); destroy stops it.
      controller.startSync();
    })();
    return () => {
      isCancelled = true;
      unsubscribe();
      if (controller) {
        controller.destroy();
        services.attachPlayer(null);
      }
      store.getState().setOffset(null);
      created.current = false;
    };
  }, [enabled, audio, services]);

  return { playback, kind, source, isPreviewEnded };
}
