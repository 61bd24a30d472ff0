import { useTranslation } from 'react-i18next';
import { useParty } from '../app/context.tsx';

/** The party's name, date and picture as the top of the entry screens. */
export function PartyHero(props: { compact?: boolean; isStartPage?: boolean }) {
  const { t, i18n } = useTranslation();
  const party = useParty((s) => s.party);
  const cover = useParty((s) => s.party?.frontend.visual?.musicImage ?? s.tracks[0]?.image ?? null);
  const hideGraphs = useParty((s) => s.party?.frontend.visual?.hideStartPageGraphs ?? false);
  if (!party) return null;
  const showCover = cover && !(props.isStartPage && hideGraphs);
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeStyle: 'short' }).format(new Date(party.starts_at));
  return (
    <div className={`hero${props.compact ? ' hero--compact' : ''}`}>
      {showCover && <img className="hero__cover" src={cover} alt="" />}
      <div>
        <p className="eyebrow">{t('hero.eyebrow')}</p>
        <p className="hero__name">{party.name}</p>
        <p className="hero__date">
          <time dateTime={party.starts_at}>{date}</time>
        </p>
      </div>
    </div>
  );
}
