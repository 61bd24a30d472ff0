import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { CountdownModule } from '@fanfare/protocol';
import { Headline, Paragraph } from '@fanfare/ui';
import { remainingUntil } from '../rules/countdown.ts';
import { localized } from '../rules/localized.ts';
import { usePage, useRuntime } from '../runtime/context.tsx';

const PARTS = ['days', 'hours', 'minutes', 'seconds'] as const;

/**
 * The countdown to `starts_at` while the campaign is upcoming; nothing while it runs (the page
 * switches by itself on the runtime's `started` event); the ended text after `ends_at`.
 */
export function Countdown({ module }: { module: z.infer<typeof CountdownModule> }) {
  const view = usePage();
  const rt = useRuntime();
  const [now, setNow] = useState(() => rt.now());
  const isUpcoming = view.phase === 'upcoming';
  useEffect(() => {
    if (!isUpcoming) return;
    const timer = window.setInterval(() => setNow(rt.now()), 1000);
    return () => window.clearInterval(timer);
  }, [isUpcoming, rt]);

  if (view.phase === 'ended') {
    return (
      <section className="module countdown countdown--ended" data-testid="campaign-ended">
        <Paragraph>{localized(module.ended_text, view.locale, view.defaultLocale) || rt.t('countdown.ended')}</Paragraph>
      </section>
    );
  }
  if (!isUpcoming || !view.campaign.starts_at) return null;
  const left = remainingUntil(Date.parse(view.campaign.starts_at), now);
  const title = localized(module.title, view.locale, view.defaultLocale) || rt.t('countdown.title');
  return (
    <section className="module countdown" aria-labelledby={`${module.id}-title`} data-testid="countdown">
      <Headline level={2} id={`${module.id}-title`}>
        {title}
      </Headline>
      <div className="countdown__parts" role="timer" aria-live="off">
        {PARTS.map((part) => {
          const [value, ...label] = rt.t(`countdown.${part}`, { count: left[part] }).split(' ');
          return (
            <div key={part} className="countdown__part" data-part={part}>
              <span className="countdown__value">{value}</span>
              <span className="countdown__label">{label.join(' ')}</span>
            </div>
          );
        })}
      </div>
    </section>
  );
}
