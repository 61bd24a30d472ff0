import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@fanfare/client';
import { REACTIONS, type Reaction } from '@fanfare/protocol';
import { useParty, useServices } from '../app/context.tsx';
import { retryAfterMs } from '../rules/errors.ts';

/** How each reaction looks. */
export const REACTION_EMOJI: Record<Reaction, string> = { fire: '🔥', heart: '❤️', clap: '👏', wow: '😮', party: '🎉' };

/** The wait when a 429 does not say how long. */
const DEFAULT_WAIT_MS = 1_000;
/** How often the wait message counts down. */
const WAIT_TICK_MS = 250;

/** The wall clock, read in event handlers and timers (never while rendering). */
function clockNow(): number {
  return Date.now();
}

/**
 * Quick reactions on the current track (issue 15): a small fixed set; the server sums everyone's
 * reactions per window and every fan sees them as a live burst. Taps are never held back here:
 * the server decides the pace. When it answers 429, the wait it names is shown, counting down,
 * and the message goes by itself when the wait is over.
 */
export function Reactions() {
  const { t } = useTranslation();
  const services = useServices();
  const bursts = useParty((s) => s.reactionBursts);
  const [waitUntilMs, setWaitUntilMs] = useState<number | null>(null);
  const [now, setNow] = useState(clockNow);
  useEffect(() => {
    if (waitUntilMs === null) return;
    const tick = () => {
      const at = clockNow();
      if (at >= waitUntilMs) setWaitUntilMs(null);
      else setNow(at);
    };
    const timer = setInterval(tick, WAIT_TICK_MS);
    const end = setTimeout(tick, Math.max(0, waitUntilMs - clockNow()));
    return () => {
      clearInterval(timer);
      clearTimeout(end);
    };
  }, [waitUntilMs]);
  const react = async (reaction: Reaction) => {
    try {
      await services.api().call('sendReaction', { params: { id: services.partyId }, body: { reaction } });
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) {
        const at = clockNow();
        setNow(at);
        setWaitUntilMs(at + (retryAfterMs(err.body) ?? DEFAULT_WAIT_MS));
      }
    }
  };
  const waitSeconds = waitUntilMs === null ? 0 : Math.max(1, Math.ceil((waitUntilMs - now) / 1000));
  return (
    <div className="reactions" data-testid="reactions">
      <div className="reactions__bar" role="group" aria-label={t('reactions.label')}>
        {REACTIONS.map((r) => (
          <button key={r} type="button" className="reactions__button" aria-label={t('reactions.send', { name: t(`reactions.${r}`) })} onClick={() => void react(r)}>
            <span aria-hidden="true">{REACTION_EMOJI[r]}</span>
          </button>
        ))}
      </div>
      <p className="hint reactions__wait" role="status" data-testid="reaction-wait">
        {waitUntilMs !== null && t('reactions.rateLimited', { seconds: waitSeconds })}
      </p>
      <div className="reactions__bursts" aria-hidden="true">
        {bursts.map((b) => (
          <span key={b.id} className="reactions__burst" data-testid="reaction-burst" data-reaction={b.reaction} style={{ left: `${(b.id * 37) % 80}%` }} onAnimationEnd={() => services.store.getState().dropReactionBurst(b.id)}>
            {REACTION_EMOJI[b.reaction]}
            {b.count > 1 && <small>×{b.count}</small>}
          </span>
        ))}
      </div>
    </div>
  );
}
