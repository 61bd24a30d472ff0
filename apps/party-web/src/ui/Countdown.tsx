import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { countdownParts } from '../rules/playback.ts';

/** A live countdown to `targetMs`; calls `onDone` once when it reaches zero. */
export function Countdown(props: { targetMs: number; label: string; onDone?: () => void }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  const parts = countdownParts(props.targetMs, now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const reachedZero = useEffectEvent(() => props.onDone?.());
  useEffect(() => {
    if (parts.done) reachedZero();
  }, [parts.done]);
  const units: [number, string][] = [
    [parts.days, t('countdown.days', { count: parts.days })],
    [parts.hours, t('countdown.hours', { count: parts.hours })],
    [parts.minutes, t('countdown.minutes', { count: parts.minutes })],
    [parts.seconds, t('countdown.seconds', { count: parts.seconds })],
  ];
  const shown = parts.days > 0 ? units : units.slice(1);
  return (
    <section className="countdown" aria-label={props.label}>
      <p className="countdown__label">{props.label}</p>
      <div className="countdown__units" role="timer" aria-live="off">
        {shown.map(([value, unit]) => (
          <div className="countdown__unit" key={unit}>
            <span className="countdown__value">{String(value).padStart(2, '0')}</span>
            <span className="countdown__name">{unit}</span>
          </div>
        ))}
      </div>
    </section>
  );
}
