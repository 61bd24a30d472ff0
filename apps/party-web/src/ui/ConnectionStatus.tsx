import { useTranslation } from 'react-i18next';
import { useParty } from '../app/context.tsx';
import { syncPhase } from '../rules/sync.ts';

/**
 * The live state, visible to the fan (spec 4, issue 15): offline, (re)connecting, catching up or
 * live, from the connection state machine, the browser's network flag and the player's realignment.
 */
export function ConnectionStatus() {
  const { t } = useTranslation();
  const connection = useParty((s) => s.connection);
  const isOnline = useParty((s) => s.isOnline);
  const isCatchingUp = useParty((s) => s.isCatchingUp);
  const phase = syncPhase({ connection, isOnline, isCatchingUp });
  if (!phase) return null;
  const label =
    phase === 'live'
      ? t('connection.live')
      : phase === 'connecting'
        ? t('connection.connecting')
        : phase === 'offline'
          ? t('connection.offline')
          : phase === 'catching_up'
            ? t('connection.catchingUp')
            : connection.kind === 'reconnecting' && connection.delayMs >= 1000
              ? t('connection.reconnecting', { seconds: Math.ceil(connection.delayMs / 1000) })
              : t('connection.reconnectingNow');
  return (
    <p className={`connection connection--${phase}`} role="status" aria-live="polite" data-testid="connection-status" data-phase={phase}>
      <span className="connection__dot" aria-hidden="true" />
      {label}
    </p>
  );
}

/** The global error state (spec 5 and 8): the socket gave up (retry cap, 1008) or the party did not load. */
export function GlobalError() {
  const { t } = useTranslation();
  const connection = useParty((s) => s.connection);
  const loadError = useParty((s) => s.loadError);
  // An unknown party has its own page inside the shell (PartyNotFound), not this alert.
  if (loadError === '404') return null;
  if (connection.kind !== 'error' && !loadError) return null;
  const message = loadError
    ? loadError === '404'
      ? t('error.partyNotFound')
      : t('error.partyLoad')
    : connection.kind === 'error' && connection.reason === 'policy_violation'
      ? t('error.socketPolicy')
      : t('error.socketRetry');
  return (
    <div className="global-error" role="alert">
      <h1>{t('error.title')}</h1>
      <p>{message}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t('error.reload')}
      </button>
    </div>
  );
}

/**
 * An address naming no party (issue 15): a proper page inside the shell, with the way to the
 * label's current party, instead of an error box and a reload that cannot help.
 */
export function PartyNotFound() {
  const { t } = useTranslation();
  return (
    <section className="screen screen--not-found" aria-labelledby="not-found-title" data-testid="party-not-found">
      <p className="hero__eyebrow">404</p>
      <h1 id="not-found-title">{t('error.notFoundTitle')}</h1>
      <p className="lead">{t('error.notFoundText')}</p>
      <a className="button button--large" href="/">
        {t('error.notFoundHome')}
      </a>
    </section>
  );
}
