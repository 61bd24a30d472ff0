import type { z } from 'zod';
import type { HeroModule } from '@fanfare/protocol';
import { Headline, Paragraph } from '@fanfare/ui';
import { localized } from '../rules/localized.ts';
import { usePage, useRuntime } from '../runtime/context.tsx';
import { altOf } from '../runtime/mediaAlt.ts';

/** Cover size on the page, also asked of the media library in the editor. */
const COVER_PX = 640;

/** The hero: cover art, the title and a subtitle. The cover is the page's largest paint, so it loads first. */
export function Hero({ module, index }: { module: z.infer<typeof HeroModule>; index: number }) {
  const view = usePage();
  const rt = useRuntime();
  const title = localized(module.title, view.locale, view.defaultLocale) || view.campaign.name;
  const subtitle = localized(module.subtitle, view.locale, view.defaultLocale);
  return (
    <section className="module hero" aria-labelledby={`${module.id}-title`}>
      {module.cover_image && (
        <img className="hero__cover" src={module.cover_image} alt={altOf(module.cover_image)} width={COVER_PX} height={COVER_PX} fetchPriority="high" decoding="async" />
      )}
      <div className="hero__text">
        <Headline level={1} id={`${module.id}-title`}>
          {title}
        </Headline>
        {subtitle && <Paragraph className="hero__subtitle">{subtitle}</Paragraph>}
        {view.isEditor && (
          <button type="button" className="editor-pick" onClick={() => rt.pickMedia(`data.page.modules.${index}.cover_image`, module.cover_image ?? null, COVER_PX, COVER_PX)}>
            {rt.t('editor.pickImage')}
          </button>
        )}
      </div>
    </section>
  );
}
