import { useEffect, useRef, useState } from 'react';
import { useServices } from '../app/context.tsx';
import { ApplePlayer, type MusicKitInstance } from '../player/applePlayer.ts';
import { PlayerController } from '../player/controller.ts';
import { HlsPlayer } from '../player/hlsPlayer.ts';
import { MockPlayer } from '../player/mockPlayer.ts';
import { choosePlayer } from '../player/select.ts';
import { SpotifyPlayer, type SpotifySdk } from '../player/spotifyPlayer.ts';
import { INITIAL_PLAYBACK, type PlaybackState, type PlayerAdapter, type PlayerKind } from '../player/types.ts';
import { MUSICKIT_JS_URL, SPOTIFY_PLAYER_JS_URL } from '@fanfare/protocol';
import { loadMusicKit, loadSpotifySdk, readProviderSdks } from '@fanfare/client/provider-sdks';

/** Spotify Web API base for the SDK player when the page names none. */
const SPOTIFY_API_URL = 'https://api.spotify.com/v1';

/** The app's name as the providers show the player (Spotify Connect, MusicKit). */
const PLAYER_NAME = 'Fanfare Listening Party';

type Sdks = { spotify: SpotifySdk | null; musicKit: MusicKitInstance | null; spotifyApiUrl: string };

/**
 * The fan's provider SDK for playback, loaded from the URL the page names (120 s at most; a failure
 * dispatches the load-error event and leaves the party's own stream to play). Only the providers'
 * official scripts play here: with the built-in emulators the party plays the catalog's HLS
 * streams, which are audible and sample-accurate, where the emulators' stand-ins are silent.
 */
async function loadPlaybackSdk(service: string | null): Promise<Sdks> {
  const settings = readProviderSdks(document);
  const env = { doc: document, win: window };
  const spotifyApiUrl = settings.spotify?.apiUrl ?? SPOTIFY_API_URL;
  const none: Sdks = { spotify: null, musicKit: null, spotifyApiUrl };
  if (service === 'spotify' && settings.spotify?.src === SPOTIFY_PLAYER_JS_URL) {
    return { ...none, spotify: await loadSpotifySdk<SpotifySdk>(settings.spotify, env).catch(() => null) };
  }
  if (service === 'apple' && settings.musicKit?.src === MUSICKIT_JS_URL) {
    return { ...none, musicKit: await loadMusicKit<MusicKitInstance>(settings.musicKit, env, PLAYER_NAME).catch(() => null) };
  }
  return none;
}

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
    const media = audio.current;
    let cleanup: (() => void) | null = null;
    let isCancelled = false;
    void (async () => {
      const s = store.getState();
      const userService = s.user?.service ?? s.service;
      const sdks = forcedPlayer() ? { spotify: null, musicKit: null, spotifyApiUrl: SPOTIFY_API_URL } : await loadPlaybackSdk(userService);
      if (isCancelled) return;
      const firstTrack = s.status?.track ?? s.tracks[0] ?? null;
      const chosen = choosePlayer({
        party: s.party,
        userService,
        hasSpotifySdk: !!sdks.spotify,
        hasMusicKit: !!sdks.musicKit,
        trackHasHls: firstTrack ? !!firstTrack.hls_url : true,
        forced: forcedPlayer(),
      });
      let adapter: PlayerAdapter;
      if (chosen === 'spotify' && sdks.spotify) adapter = new SpotifyPlayer({ sdk: sdks.spotify, token: () => store.getState().serviceToken, apiUrl: sdks.spotifyApiUrl, name: PLAYER_NAME });
      else if (chosen === 'apple' && sdks.musicKit) adapter = new ApplePlayer(sdks.musicKit);
      else if (chosen === 'umg_hls') adapter = new HlsPlayer(media);
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
      cleanup = () => {
        unsubscribe();
        controller.destroy();
        store.getState().setOffset(null);
        services.attachPlayer(null);
      };
    })();
    return () => {
      isCancelled = true;
      cleanup?.();
      created.current = false;
    };
  }, [enabled, audio, services]);

  return { playback, kind };
}
