import { useEffect, useRef, useState } from 'react';
import { useServices } from '../app/context.tsx';
import { ApplePlayer, type MusicKitInstance } from '../player/applePlayer.ts';
import { PlayerController } from '../player/controller.ts';
import { HlsPlayer } from '../player/hlsPlayer.ts';
import { MockPlayer } from '../player/mockPlayer.ts';
import { choosePlayer } from '../player/select.ts';
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
  const created = useRef(false);

  useEffect(() => {
    if (!enabled || created.current || !audio.current) return;
    created.current = true;
    const { store } = services;
    const s = store.getState();
    const w = window as unknown as { Spotify?: SpotifySdk; MusicKit?: { getInstance(): MusicKitInstance } };
    const firstTrack = s.status?.track ?? s.tracks[0] ?? null;
    const chosen = choosePlayer({
      party: s.party,
      userService: s.user?.service ?? s.service,
      hasSpotifySdk: !!w.Spotify,
      hasMusicKit: !!w.MusicKit,
      trackHasHls: firstTrack ? !!firstTrack.hls_url : true,
      forced: forcedPlayer(),
    });
    let adapter: PlayerAdapter;
    if (chosen === 'spotify' && w.Spotify) adapter = new SpotifyPlayer({ sdk: w.Spotify, token: () => store.getState().serviceToken, apiUrl: SPOTIFY_API_URL });
    else if (chosen === 'apple' && w.MusicKit) adapter = new ApplePlayer(w.MusicKit.getInstance());
    else if (chosen === 'umg_hls') adapter = new HlsPlayer(audio.current);
    else adapter = new MockPlayer();
    setKind(adapter.kind);
    const unsubscribe = adapter.onState(setPlayback);
    const controller = new PlayerController({
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
    services.attachPlayer(controller);
    void controller.play().catch(() => undefined);
    // Keeps correcting small errors for as long as the player lives (issue 16); destroy stops it.
    controller.startSync();
    return () => {
      unsubscribe();
      controller.destroy();
      store.getState().setOffset(null);
      services.attachPlayer(null);
      created.current = false;
    };
  }, [enabled, audio, services]);

  return { playback, kind };
}
