/**
 * Party Replay (issue 47): an ended party played again on the album's own timeline. The music
 * plays through the app's own players (the label stream `umg_hls` for everyone, the fan's
 * provider when logged in with one that plays here, `player.ts`); chat, polls with their results,
 * quiz questions with their answers, popups and vote swings show once the track reaches the
 * position where they happened, the waiting room's first under "before the party". The screen is
 * its own chunk: fans' first load carries none of it.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@fanfare/client';
import type { ReplayItem, ReplayManifest, ReplayTrackDocument } from '@fanfare/protocol';
import { useParty, useServices } from '../app/context.tsx';
import { isHostOrAdmin } from '../rules/roles.ts';
import { roleOf } from '../state/store.ts';
import { Avatar } from '../ui/Avatar.tsx';
import { createReplayPlayer } from './player.ts';
import { byPhase, clampPosition, formatPosition, nextPlay, optionShares, replayLink, shownItems } from './rules.ts';
import { replayDe, replayEn } from './strings.ts';
import type { PlayerAdapter, PlayerKind, PlaybackState } from '../player/types.ts';
import './replay.css';

type Load = { state: 'loading' } | { state: 'notReady' } | { state: 'failed' } | { state: 'ready'; manifest: ReplayManifest };

/** How often the screen asks again while the replay is being built (it is ready within a minute). */
const NOT_READY_RETRY_MS = 10_000;
/** At most this many automatic retries (then the fan retries by hand). */
const NOT_READY_RETRIES = 12;
/** How often the position is read from the player while it plays (the items' bound is ±250 ms). */
const TICK_MS = 100;
/** Arrow keys on the scrubber move this far. */
const KEY_STEP_MS = 5_000;

/** Which items of the position and the scrubbed position, for one play. */
interface Cursor {
  play: number;
  positionMs: number;
}

export default function Replay() {
  const { t, i18n } = useTranslation();
  // The replay's strings come with its chunk (see strings.ts); deep-merged once per instance.
  useState(() => {
    i18n.addResourceBundle('de', 'translation', replayDe, true, false);
    i18n.addResourceBundle('en', 'translation', replayEn, true, false);
    return true;
  });
  const services = useServices();
  const isHost = useParty((s) => isHostOrAdmin(roleOf(s)));
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [docs, setDocs] = useState<Record<string, ReplayTrackDocument>>({});
  const [cursor, setCursor] = useState<Cursor>({ play: 0, positionMs: 0 });
  const [isPlaying, setPlaying] = useState(false);
  const [isFinished, setFinished] = useState(false);
  const [playback, setPlayback] = useState<PlaybackState | null>(null);
  const [hiddenNow, setHiddenNow] = useState<string[]>([]);
  const [copied, setCopied] = useState(false);
  const audio = useRef<HTMLAudioElement | null>(null);
  const player = useRef<PlayerAdapter | null>(null);
  const creating = useRef<Promise<PlayerAdapter> | null>(null);
  const [playerKind, setPlayerKind] = useState<PlayerKind | null>(null);

  // The manifest; while the replay is being built, asked again every few seconds (bounded).
  useEffect(() => {
    let isCurrent = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    services
      .api()
      .call('getPartyReplay', { params: { id: services.partyId } })
      .then((manifest) => isCurrent && setLoad({ state: 'ready', manifest }))
      .catch((e: unknown) => {
        if (!isCurrent) return;
        const notReady = e instanceof ApiError && e.status === 404;
        setLoad({ state: notReady ? 'notReady' : 'failed' });
        if (notReady && attempt < NOT_READY_RETRIES) timer = setTimeout(() => setAttempt((n) => n + 1), NOT_READY_RETRY_MS);
      });
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [services, attempt]);

  const manifest = load.state === 'ready' ? load.manifest : null;
  const play = manifest?.plays[cursor.play] ?? null;
  const docKey = manifest && play ? `${manifest.build}/${play.index}` : null;
  const doc = docKey ? docs[docKey] : undefined;

  // The play's document (immutable per build: fetched once, cached by the browser too).
  useEffect(() => {
    if (!manifest || !play || !docKey || docs[docKey]) return;
    let isCurrent = true;
    services
      .api()
      .call('getPartyReplayTrack', { params: { id: services.partyId, build: manifest.build, play: play.index } })
      .then((d) => isCurrent && setDocs((all) => ({ ...all, [docKey]: d })))
      .catch((e: unknown) => {
        // 410: a host hid something and the build was replaced; the manifest names the new one.
        if (isCurrent && e instanceof ApiError && e.status === 410) setAttempt((n) => n + 1);
        else if (isCurrent) setLoad({ state: 'failed' });
      });
    return () => {
      isCurrent = false;
    };
  }, [services, manifest, play, docKey, docs]);

  // The player lives as long as the screen.
  useEffect(
    () => () => {
      player.current?.destroy();
      player.current = null;
    },
    [],
  );

  const ensurePlayer = useCallback(async (): Promise<PlayerAdapter | null> => {
    if (player.current) return player.current;
    if (!audio.current || !manifest) return null;
    // One player however often play is pressed while the provider's SDK loads.
    creating.current ??= (async () => {
      const adapter = await createReplayPlayer(services, audio.current!, manifest.plays[0]?.track ?? null);
      adapter.onState(setPlayback);
      player.current = adapter;
      setPlayerKind(adapter.kind);
      return adapter;
    })().finally(() => {
      creating.current = null;
    });
    return creating.current;
  }, [services, manifest]);

  const startAt = useCallback(
    async (next: Cursor) => {
      if (!manifest) return;
      const target = manifest.plays[next.play];
      if (!target) return;
      setCursor(next);
      setFinished(false);
      const adapter = await ensurePlayer().catch(() => null);
      if (!adapter) return;
      setPlaying(true);
      await adapter.play(target.track, next.positionMs).catch(() => undefined);
    },
    [manifest, ensurePlayer],
  );

  const pause = useCallback(async () => {
    setPlaying(false);
    await player.current?.pause().catch(() => undefined);
  }, []);

  // While playing, the position is the player's own (the audio's clock); a loading player holds the last one.
  useEffect(() => {
    if (!isPlaying || !manifest || !play) return;
    const timer = setInterval(() => {
      const adapter = player.current;
      if (!adapter || adapter.positionMs === undefined) return;
      const state = playback;
      if (state?.isLoading || state?.isPaused) return;
      const position = adapter.positionMs();
      if (position >= play.played_ms) {
        const next = nextPlay(manifest, play.index);
        if (next === null) {
          void pause();
          setFinished(true);
          setCursor({ play: play.index, positionMs: play.played_ms });
        } else void startAt({ play: next, positionMs: 0 });
        return;
      }
      setCursor((c) => (c.play === play.index && Math.abs(c.positionMs - position) < 1 ? c : { play: play.index, positionMs: position }));
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [isPlaying, manifest, play, playback, pause, startAt]);

  const scrubTo = (positionMs: number) => {
    if (!play) return;
    const next = { play: play.index, positionMs: clampPosition(positionMs, play.played_ms) };
    setCursor(next);
    setFinished(false);
    if (isPlaying) void startAt(next);
  };

  const choosePlay = (index: number) => {
    const next = { play: index, positionMs: 0 };
    if (isPlaying) void startAt(next);
    else setCursor(next);
  };

  const hide = async (itemId: string) => {
    try {
      await services.api().call('hideReplayItem', { params: { id: services.partyId, itemId } });
      setHiddenNow((ids) => [...ids, itemId]);
    } catch {
      setLoad({ state: 'failed' });
    }
  };

  const shown = useMemo(() => {
    const items = (doc?.items ?? []).filter((i) => !hiddenNow.includes(i.id));
    return shownItems(items, cursor.positionMs);
  }, [doc, cursor.positionMs, hiddenNow]);
  const link = replayLink(window.location.href);

  if (load.state === 'loading') return <Status text={t('replay.loading')} />;
  if (load.state === 'notReady' || load.state === 'failed')
    return (
      <Status text={load.state === 'notReady' ? t('replay.notReady') : t('replay.failed')}>
        <button type="button" className="button" onClick={() => setAttempt((n) => n + 1)}>
          {t('replay.retry')}
        </button>
      </Status>
    );

  const m = load.manifest;
  const feed = byPhase(shown.latest.filter((i) => i.kind !== 'poll' && i.kind !== 'quiz'));
  const latest = feed.during;
  return (
    <div className="screen screen--replay">
      <h1>{t('replay.title', { name: m.name })}</h1>
      <p className="lead">{t('replay.lead')}</p>
      <audio ref={audio} className="sr-only" />
      <div className="replay">
        <section className="card replay__player" aria-labelledby="replay-now">
          <p className="eyebrow" id="replay-now">
            {t('replay.nowPlaying')}
          </p>
          {play && (
            <>
              <div className="replay__track">
                {play.track.image && <img src={play.track.image} alt="" width={64} height={64} />}
                <div>
                  <h2 className="replay__track-name">{play.track.name}</h2>
                  <p>{play.track.artists.join(', ')}</p>
                </div>
              </div>
              <div className="replay__controls">
                <button type="button" className="button" onClick={() => (isPlaying ? void pause() : void startAt(cursor))} data-testid="replay-play">
                  {isPlaying ? t('replay.pause') : t('replay.play')}
                </button>
                <span aria-hidden="true" className="replay__time">
                  {formatPosition(cursor.positionMs)} / {formatPosition(play.played_ms)}
                </span>
              </div>
              <input
                type="range"
                className="replay__scrubber"
                min={0}
                max={play.played_ms}
                step={1}
                value={Math.round(cursor.positionMs)}
                aria-label={t('replay.position', { track: play.track.name })}
                aria-valuetext={`${formatPosition(cursor.positionMs)} / ${formatPosition(play.played_ms)}`}
                onChange={(e) => scrubTo(Number(e.currentTarget.value))}
                onKeyDown={(e) => {
                  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
                  e.preventDefault();
                  scrubTo(cursor.positionMs + (e.key === 'ArrowRight' ? KEY_STEP_MS : -KEY_STEP_MS));
                }}
                data-testid="replay-scrubber"
              />
              {playerKind && (
                <p className="replay__hint" data-testid="replay-source" data-player-kind={playerKind}>
                  {t('replay.player', { kind: t(`replay.kinds.${playerKind}`) })}
                </p>
              )}
              {playback?.needsGesture && <p role="status">{t('replay.needsGesture')}</p>}
              {isFinished && <p role="status">{t('replay.finished')}</p>}
            </>
          )}
          <h2 className="replay__subhead">{t('replay.tracks')}</h2>
          <ol className="plain-list replay__plays">
            {m.plays.map((p) => (
              <li key={p.index}>
                <button type="button" className="button button--ghost button--block" aria-current={p.index === cursor.play ? 'true' : undefined} onClick={() => choosePlay(p.index)}>
                  {t('replay.trackButton', { index: p.index + 1, name: p.track.name })}
                </button>
              </li>
            ))}
          </ol>
          <div className="replay__share">
            <label htmlFor="replay-link">{t('replay.share')}</label>
            <div className="replay__share-row">
              <input id="replay-link" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
              <button
                type="button"
                className="button button--small"
                onClick={() => {
                  void navigator.clipboard?.writeText(link).then(() => setCopied(true), () => undefined);
                }}
              >
                {copied ? t('replay.copied') : t('replay.copy')}
              </button>
            </div>
          </div>
        </section>
        <section className="card replay__items" aria-labelledby="replay-items" aria-live="polite" data-testid="replay-items">
          <h2 id="replay-items">{t('replay.items')}</h2>
          {shown.questions.map((q) => (
            <ItemView key={q.id} item={q} canHide={isHost} onHide={hide} />
          ))}
          {feed.before.length > 0 && (
            <section className="replay__before" aria-labelledby="replay-before" data-testid="replay-before">
              <h3 id="replay-before" className="replay__subhead">
                {t('replay.beforeStart')}
              </h3>
              <p className="replay__hint">{t('replay.beforeStartHint')}</p>
              <ol className="plain-list replay__feed">
                {feed.before.map((item) => (
                  <li key={item.id}>
                    <ItemView item={item} canHide={isHost} onHide={hide} />
                  </li>
                ))}
              </ol>
            </section>
          )}
          {latest.length === 0 && shown.questions.length === 0 && feed.before.length === 0 ? (
            <p>{t('replay.empty')}</p>
          ) : latest.length === 0 ? null : (
            <ol className="plain-list replay__feed">
              {latest.map((item) => (
                <li key={item.id}>
                  <ItemView item={item} canHide={isHost} onHide={hide} />
                </li>
              ))}
            </ol>
          )}
          {!!doc?.dropped_items && <p className="replay__hint">{t('replay.dropped', { count: doc.dropped_items })}</p>}
          {hiddenNow.length > 0 && <p role="status">{t('replay.hidden')}</p>}
        </section>
      </div>
    </div>
  );
}

function Status(props: { text: string; children?: React.ReactNode }) {
  return (
    <div className="screen screen--replay">
      <p role="status" className="lead">
        {props.text}
      </p>
      {props.children}
    </div>
  );
}

/** One item of the replay, as the live party showed it. */
function ItemView(props: { item: ReplayItem; canHide: boolean; onHide: (id: string) => Promise<void> }) {
  const { t } = useTranslation();
  const item = props.item;
  const hide = props.canHide ? (
    <button type="button" className="button button--ghost button--small" onClick={() => void props.onHide(item.id)}>
      {t('replay.hide')}
    </button>
  ) : null;
  const at = <span className="replay__at">{item.before_start ? t('replay.beforeStart') : t('replay.at', { position: formatPosition(item.position_ms) })}</span>;
  if (item.kind === 'message')
    return (
      <div className="replay__message" data-testid="replay-message">
        <Avatar name={item.sender.display_name} picture={item.sender.profile_picture} size={28} />
        <div>
          <p className="replay__sender">
            {item.sender.display_name} {at}
          </p>
          {item.text && <p>{item.text}</p>}
          {item.photo && <img src={item.photo} alt="" className="replay__photo" />}
        </div>
        {hide}
      </div>
    );
  if (item.kind === 'popup')
    return (
      <div className="replay__notice" data-testid="replay-popup">
        <p className="eyebrow">
          {t('replay.popup')} {at}
        </p>
        <p>{item.message}</p>
        {hide}
      </div>
    );
  if (item.kind === 'votes')
    return (
      <div className="replay__notice" data-testid="replay-votes">
        <p>
          {t(item.cause === 'withdrawal' ? 'replay.votesWithdrawn' : 'replay.votes', { name: item.leader.name, votes: t('replay.votesCount', { count: item.leader.votes }) })} {at}
        </p>
        {hide}
      </div>
    );
  const shares = optionShares(item.options);
  const headingId = `replay-q-${item.id}`;
  return (
    <section className={`poll${item.kind === 'quiz' ? ' poll--quiz' : ''}`} aria-labelledby={headingId} data-testid={`replay-${item.kind}`}>
      <p className="eyebrow">
        {item.kind === 'quiz' ? t('replay.quiz') : t('replay.poll')} {at}
      </p>
      <h3 id={headingId} className="poll__question">
        {item.question}
      </h3>
      <ul className="poll__options">
        {item.options.map((option, i) => {
          const isCorrect = item.kind === 'quiz' && item.correct_answer === i;
          return (
            <li key={i}>
              <div className={`poll__result${isCorrect ? ' is-correct' : ''}`}>
                <div className="poll__result-text">
                  <span>{option.text}</span>
                  <span>
                    {shares[i]}% ({t('replay.votesCount', { count: option.votes })}){isCorrect && <span className="badge badge--ok">{t('replay.correct')}</span>}
                  </span>
                </div>
                <div className="bar" aria-hidden="true">
                  <span style={{ width: `${shares[i]}%` }} />
                </div>
              </div>
            </li>
          );
        })}
      </ul>
      {hide}
    </section>
  );
}
