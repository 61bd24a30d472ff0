import { useEffect, useRef, useState } from 'react';
import { useServices } from '../app/context.tsx';
import { ApplePlayer, type MusicKitInstance } from '../player/applePlayer.ts';
import { PlayerController } from '../player/controller.ts';
import { HlsPlayer } from '../player/hlsPlayer.ts';
import { MockPlayer } from '../player/mockPlayer.ts';
import { PreviewPlayer } from '../player/previewPlayer.ts';
import { canSetVolume, chooseSource, detectEme, providerBlocker, type SourceChoice } from '../player/select.ts';
import { SpotifyPlayer, type SpotifySdk } from '../player/spotifyPlayer.ts';
import { INITIAL_PLAYBACK, type PlaybackState, type PlayerAdapter, type PlayerKind } from '../player/types.ts';

/** Spotify Web API base for the SDK player (the real one; the SDK exists only online). */
const SPOTIFY_API_URL = 'https://api.spotify.com/v1';

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
    const s = store.getState();
    const w = window as unknown as { Spotify?: SpotifySdk; MusicKit?: { getInstance(): MusicKitInstance } };
    const firstTrack = s.status?.track ?? s.tracks[0] ?? null;
    const element = audio.current;
    const input = {
      party: s.party,
      userService: s.user?.service ?? s.service,
      isPremium: s.user?.premium ?? true,
      hasSpotifySdk: !!w.Spotify,
      hasMusicKit: !!w.MusicKit,
      canSetVolume: canSetVolume(element),
      trackHasHls: firstTrack ? !!firstTrack.hls_url : true,
      forced: forcedPlayer(),
    };
    let controller: PlayerController | null = null;
    let unsubscribe = () => {};
    let isCancelled = false;
    void (async () => {
      // EME is asked only when nothing else already rules the provider out (the check is async).
      const hasEme = input.forced || input.party?.music?.service === 'umg_hls' || providerBlocker(input) ? true : await detectEme();
      if (isCancelled) return;
      const choice = chooseSource({ ...input, hasEme });
      setSource(choice);
      let adapter: PlayerAdapter;
      if (choice.kind === 'spotify' && w.Spotify) adapter = new SpotifyPlayer({ sdk: w.Spotify, token: () => store.getState().serviceToken, apiUrl: SPOTIFY_API_URL });
      else if (choice.kind === 'apple' && w.MusicKit) adapter = new ApplePlayer(w.MusicKit.getInstance());
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
