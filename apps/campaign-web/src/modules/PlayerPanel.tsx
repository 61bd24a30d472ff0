import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import type { PlaybackTrack } from '@fanfare/protocol';
import { Icon, deviceIcon } from '@fanfare/ui';
import { formatClock } from '../rules/format.ts';
import { usePage, useRuntime } from '../runtime/context.tsx';
import type { PlayerControls } from '../runtime/types.ts';

type Tracks = { request: string; kind: 'failed' } | { request: string; kind: 'ready'; tracks: PlaybackTrack[] };

/** The campaign's tracks and the player (provider when logged in, HLS preview otherwise). */
export default function PlayerPanel({ trackIds }: { trackIds: string[] }) {
  const rt = useRuntime();
  const view = usePage();
  const [result, setResult] = useState<Tracks | null>(null);
  const [attempt, setAttempt] = useState(0);
  const key = trackIds.join(',');
  // The answer belongs to one request (ids and attempt): an older one reads as loading.
  const request = `${attempt}:${key}`;

  useEffect(() => {
    let live = true;
    rt.tracks(key.split(',')).then(
      (list) => live && setResult({ request, kind: 'ready', tracks: list }),
      () => live && setResult({ request, kind: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [rt, key, request]);

  if (!result || result.request !== request) return <p className="player__loading">{rt.t('page.loading')}</p>;
  if (result.kind === 'failed')
    return (
      <div className="notice notice--error" role="alert">
        {rt.t('player.loadFailed')}{' '}
        <button type="button" className="link-button" onClick={() => setAttempt((a) => a + 1)}>
          {rt.t('page.retry')}
        </button>
      </div>
    );
  // A new player whenever the login changes: provider playback replaces the preview.
  return <PlayerBody key={view.account?.service ?? 'preview'} tracks={result.tracks} />;
}

function PlayerBody({ tracks }: { tracks: PlaybackTrack[] }) {
  const rt = useRuntime();
  const [player] = useState<PlayerControls>(() => rt.createPlayer(tracks));
  useEffect(() => () => player.destroy(), [player]);
  const snap = useSyncExternalStore(player.subscribe, player.getSnapshot);
  const { state } = snap;
  const current = state.currentTrack;
  const ids = useId();
  const act = (p: Promise<void>) => void p.catch(() => undefined);

  return (
    <div className="player__body" data-player-kind={snap.kind}>
      <div className="now-playing" aria-labelledby={`${ids}-np`} role="group">
        <span id={`${ids}-np`} className="ffui-visually-hidden">
          {rt.t('player.nowPlaying')}
        </span>
        {current?.image ? <img className="now-playing__cover" src={current.image} alt="" width={72} height={72} /> : <div className="now-playing__cover now-playing__cover--empty" aria-hidden="true" />}
        <div className="now-playing__text" aria-live="polite" data-testid="now-playing">
          {current ? (
            <>
              <strong>{current.name}</strong>
              <span>{current.artists.join(', ')}</span>
            </>
          ) : (
            <span>{rt.t('player.nothingPlaying')}</span>
          )}
        </div>
      </div>
      <div className="progress">
        <span className="progress__time" data-testid="progress-time">
          {formatClock(state.progressMs)}
        </span>
        <div
          className="progress__bar"
          role="progressbar"
          aria-label={rt.t('player.progress')}
          aria-valuemin={0}
          aria-valuemax={Math.round((current?.durationMs ?? 0) / 1000)}
          aria-valuenow={Math.round(state.progressMs / 1000)}
          aria-valuetext={`${formatClock(state.progressMs)} / ${formatClock(current?.durationMs ?? 0)}`}
        >
          <div className="progress__fill" style={{ width: `${current?.durationMs ? Math.min(100, (100 * state.progressMs) / current.durationMs) : 0}%` }} />
        </div>
        <span className="progress__time">{formatClock(current?.durationMs ?? 0)}</span>
      </div>
      <div className="controls">
        <button type="button" className="ffui-icon-button" aria-label={rt.t('player.previous')} onClick={() => act(player.previous())}>
          <Icon name="previous" />
        </button>
        <button
          type="button"
          className="ffui-icon-button controls__play"
          aria-label={state.isPaused ? rt.t('player.play') : rt.t('player.pause')}
          onClick={() => act(current ? player.toggle() : player.playTrack(tracks[0]!.id))}
          aria-busy={state.isLoading || undefined}
        >
          <Icon name={state.isPaused ? 'play' : 'pause'} size={28} />
        </button>
        <button type="button" className="ffui-icon-button" aria-label={rt.t('player.next')} onClick={() => act(player.next())}>
          <Icon name="next" />
        </button>
        <label className="volume" htmlFor={`${ids}-volume`}>
          <Icon name="volume" size={20} />
          <span className="ffui-visually-hidden">{rt.t('player.volume')}</span>
          <input
            id={`${ids}-volume`}
            type="range"
            min={0}
            max={100}
            step={5}
            value={Math.round(state.volume * 100)}
            disabled={!state.supportsVolume}
            onChange={(e) => act(player.setVolume(Number(e.target.value) / 100))}
          />
        </label>
      </div>
      {snap.kind === 'provider' && snap.devices.length > 0 && (
        <label className="device-picker" htmlFor={`${ids}-device`}>
          <Icon name={deviceIcon(snap.devices.find((d) => d.id === snap.activeDeviceId)?.type ?? 'speaker')} size={20} />
          <span className="field__label">{rt.t('player.device')}</span>
          <select id={`${ids}-device`} value={snap.activeDeviceId ?? ''} onChange={(e) => act(player.transfer(e.target.value))} onFocus={() => act(player.refreshDevices())}>
            {snap.devices.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <ol className="tracklist" aria-label={rt.t('player.tracks', { count: tracks.length })}>
        {tracks.map((t) => {
          const isCurrent = t.id === current?.id;
          return (
            <li key={t.id} className={`tracklist__item${isCurrent ? ' tracklist__item--current' : ''}`}>
              <button type="button" className="tracklist__button" onClick={() => act(player.playTrack(t.id))} aria-current={isCurrent || undefined}>
                <span className="ffui-visually-hidden">{rt.t('player.play')}: </span>
                {t.image && <img src={t.image} alt="" width={40} height={40} loading="lazy" />}
                <span className="tracklist__name">
                  <strong>{t.name}</strong>
                  <span>{t.artists.join(', ')}</span>
                </span>
                <span className="tracklist__duration">{formatClock(t.durationMs)}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
