import { useTranslation } from 'react-i18next';
import { useParty, useServices } from '../app/context.tsx';
import { readOffset } from '../rules/sync.ts';

/**
 * The fan's measured offset from the party (issue 15): "in sync" or "N ms behind/ahead", from the
 * same clock sync the timeline uses. A tap resyncs.
 */
export function SyncIndicator() {
  const { t } = useTranslation();
  const services = useServices();
  const offsetMs = useParty((s) => s.offsetMs);
  const isCatchingUp = useParty((s) => s.isCatchingUp);
  const reading = readOffset(offsetMs);
  const text =
    reading.kind === 'in_sync'
      ? t('sync.inSync')
      : reading.kind === 'behind'
        ? t('sync.behind', { ms: reading.ms })
        : reading.kind === 'ahead'
          ? t('sync.ahead', { ms: reading.ms })
          : t('sync.measuring');
  return (
    <button
      type="button"
      className={`sync-indicator sync-indicator--${reading.kind}`}
      data-testid="sync-indicator"
      data-offset-ms={offsetMs === null ? '' : Math.round(offsetMs)}
      title={t('sync.hint')}
      disabled={isCatchingUp}
      onClick={() => void services.live?.resync()}
    >
      <span className="sync-indicator__dot" aria-hidden="true" />
      {/* The visible words are the name (WCAG 2.5.3, label in name); the title explains them. */}
      <span>{text}</span> <span className="sync-indicator__action">{t('sync.resync')}</span>
    </button>
  );
}

/** The live listener count (issue 15), aggregated by the server. */
export function ListenerCount() {
  const { t } = useTranslation();
  const listeners = useParty((s) => s.listeners);
  if (listeners === null) return null;
  return (
    <p className="listener-count" data-testid="listener-count" aria-live="polite">
      <span aria-hidden="true">🎧 </span>
      {t('player.listeners', { count: listeners })}
    </p>
  );
}
