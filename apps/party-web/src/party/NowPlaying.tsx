import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParty, useServices } from '../app/context.tsx';
import type { SourceChoice } from '../player/select.ts';
import type { PlaybackState, PlayerKind } from '../player/types.ts';
import { formatClock, positionNowMs } from '../rules/playback.ts';
import { isHostOrAdmin } from '../rules/roles.ts';
import { isAlbumFinished } from '../rules/sync.ts';
import { roleOf } from '../state/store.ts';
import { Reactions } from './Reactions.tsx';
import { SourceNotice } from './SourceNotice.tsx';
import { ListenerCount, SyncIndicator } from './SyncIndicator.tsx';

/** The current track on the party timeline, with play/pause and volume for the fan. */
export function NowPlaying(props: { playback: PlaybackState; kind: PlayerKind | null; source?: SourceChoice | null; isPreviewEnded?: boolean }) {
  const { t } = useTranslation();
  const services = useServices();
  const status = useParty((s) => s.status);
  const offset = useParty((s) => s.clockOffsetMs);
  const manualPause = useParty((s) => s.manualPause);
  const mediaError = useParty((s) => s.mediaError);
  const isFinished = useParty((s) => isAlbumFinished(s.status, s.tracks));
  const isHost = useParty((s) => isHostOrAdmin(roleOf(s)));
  const volumeId = useId();
  const pausedReasonId = useId();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, []);

  if (!status) {
    return (
      <section className="now-playing card" aria-label={t('player.nowPlaying')}>
        <p className="lead" role="status">
          {t('player.notStarted')}
        </p>
      </section>
    );
  }
  if (isFinished) {
    return (
      <section className="now-playing now-playing--finished card" aria-labelledby="finished-title" data-testid="album-finished">
        <div className="now-playing__main">
          {status.track.image ? <img className="now-playing__cover" src={status.track.image} alt="" /> : null}
          <div className="now-playing__text">
            <h1 id="finished-title" className="now-playing__title">
              {t('player.finishedTitle')}
            </h1>
            <p className="now-playing__artist">{t('player.finishedText')}</p>
          </div>
        </div>
        <ListenerCount />
      </section>
    );
  }
  const track = status.track;
  const pos = positionNowMs(status, now, offset);
  const pct = track.duration_ms > 0 ? Math.min(100, (pos / track.duration_ms) * 100) : 0;
  const listening = !manualPause && !props.playback.isPaused && !props.playback.needsGesture;
  // Why nothing plays, in words (the eyebrow alone said "Paused"): the host stopped the party, or the fan paused.
  const pausedReason = status.is_paused ? (isHost ? t('player.pausedForEveryone') : t('player.pausedByHost')) : manualPause ? t('player.pausedByYou') : null;
  const toggle = () => {
    const player = services.player;
    if (!player) return;
    if (listening) void player.pause();
    else void player.play();
  };

  return (
    <section className="now-playing card" aria-labelledby="now-playing-title" data-testid="now-playing">
      <div className="now-playing__main">
        {track.image ? <img className="now-playing__cover" src={track.image} alt="" /> : <div className="now-playing__cover now-playing__cover--empty" aria-hidden="true">♪</div>}
        <div className="now-playing__text">
          <p className="eyebrow">{status.is_paused ? t('player.paused') : t('player.nowPlaying')}</p>
          <h1 id="now-playing-title" className="now-playing__title">
            {track.name}
          </h1>
          <p className="now-playing__artist">{track.artists.join(', ')}</p>
          {pausedReason && (
            <p id={pausedReasonId} className="paused-reason" role="status" data-testid="paused-reason">
              {pausedReason}
            </p>
          )}
          <SourceNotice choice={props.source ?? null} isPreviewEnded={props.isPreviewEnded ?? false} />
        </div>
      </div>
      <div className="progress" role="progressbar" aria-label={t('player.progress')} aria-valuemin={0} aria-valuemax={Math.round(track.duration_ms / 1000)} aria-valuenow={Math.round(pos / 1000)} aria-valuetext={`${formatClock(pos)} / ${formatClock(track.duration_ms)}`}>
        <span style={{ width: `${pct}%` }} />
      </div>
      <div className="progress__times" aria-hidden="true">
        <span data-testid="timeline-position">{formatClock(pos)}</span>
        <span>{formatClock(track.duration_ms)}</span>
      </div>
      {mediaError ? (
        <p className="form-error" role="alert" data-testid="media-error">
          {t('player.mediaError')}
        </p>
      ) : (
        <div className="now-playing__controls">
          <button type="button" className="button button--large" onClick={toggle} disabled={status.is_paused} aria-describedby={pausedReason ? pausedReasonId : undefined} data-testid="play-toggle">
            {listening ? t('player.pause') : props.playback.needsGesture ? t('player.tapToListen') : t('player.listen')}
          </button>
          {props.playback.supportsVolume && props.kind !== 'mock' && (
            <div className="volume">
              <label htmlFor={volumeId}>{t('player.volume')}</label>
              <input
                id={volumeId}
                type="range"
                min={0}
                max={100}
                value={Math.round(props.playback.volume * 100)}
                onChange={(e) => void services.player?.setVolume(Number(e.target.value) / 100)}
              />
            </div>
          )}
        </div>
      )}
      <div className="now-playing__live">
        <ListenerCount />
        {listening && <SyncIndicator />}
      </div>
      {!status.is_paused && <Reactions />}
      {props.kind === 'mock' && <p className="hint">{t('player.mockHint')}</p>}
    </section>
  );
}
