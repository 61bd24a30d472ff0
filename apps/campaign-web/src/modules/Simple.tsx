import type { z } from 'zod';
import type { CardModule, LinksModule, TextModule } from '@fanfare/protocol';
import { Card, Headline, Icon, Paragraph } from '@fanfare/ui';
import { localized } from '../rules/localized.ts';
import { usePage, useRuntime } from '../runtime/context.tsx';

/** Free text: a title and paragraphs (blank lines separate them). */
export function TextBlock({ module }: { module: z.infer<typeof TextModule> }) {
  const view = usePage();
  const title = localized(module.title, view.locale, view.defaultLocale);
  const body = localized(module.body, view.locale, view.defaultLocale);
  return (
    <section className="module text" aria-label={title || undefined}>
      {title && <Headline level={2}>{title}</Headline>}
      {body.split(/\n{2,}/).map((p, i) => (
        <Paragraph key={i}>{p}</Paragraph>
      ))}
    </section>
  );
}

/** A card (spec 2): optional text and a button that opens the card's link. */
export function CardBlock({ module }: { module: z.infer<typeof CardModule> }) {
  const view = usePage();
  const title = localized(module.title, view.locale, view.defaultLocale);
  const text = localized(module.text, view.locale, view.defaultLocale);
  const label = localized(module.button_label, view.locale, view.defaultLocale);
  const url = module.url;
  return (
    <section className="module" aria-label={title || text || undefined}>
      <Card
        image={module.image}
        font={view.page.look.font}
        text={
          title || text ? (
            <>
              {title && <Headline level={3}>{title}</Headline>}
              {text && <Paragraph>{text}</Paragraph>}
            </>
          ) : undefined
        }
        buttonLabel={url ? label || undefined : undefined}
        onButtonClick={url ? () => window.location.assign(url) : undefined}
      />
    </section>
  );
}

const NETWORK_NAMES = { instagram: 'Instagram', facebook: 'Facebook', tiktok: 'TikTok', youtube: 'YouTube', x: 'X' } as const;

/** Ticket and social links. */
export function LinksBlock({ module }: { module: z.infer<typeof LinksModule> }) {
  const view = usePage();
  const rt = useRuntime();
  const title = localized(module.title, view.locale, view.defaultLocale);
  const ticket = localized(module.ticket_label, view.locale, view.defaultLocale) || rt.t('links.tickets');
  if (!module.ticket_url && module.socials.length === 0) return null;
  return (
    <section className="module links" aria-label={title || rt.t('links.follow')}>
      {title && <Headline level={2}>{title}</Headline>}
      {module.ticket_url && (
        <a className="ffui-button ffui-button--primary ffui-button--big links__ticket" href={module.ticket_url} rel="noopener">
          <Icon name="ticket" />
          {ticket}
        </a>
      )}
      {module.socials.length > 0 && (
        <ul className="links__socials">
          {module.socials.map((s) => (
            <li key={`${s.network}-${s.url}`}>
              <a className="links__social" href={s.url} rel="noopener noreferrer" aria-label={NETWORK_NAMES[s.network]}>
                <Icon name={s.network} />
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
