import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SOURCE_NAMESPACE, sourceDe, sourceEn } from '../i18n/source.ts';
import type { SourceChoice } from '../player/select.ts';
import { useIsMobile } from '../ui/Shell.tsx';

/** True when the fan should be told what they hear and why (their own provider does not play). */
export function needsSourceNotice(choice: SourceChoice | null): choice is SourceChoice {
  return !!choice && choice.reason !== 'provider_ok' && choice.reason !== 'party_stream';
}

/**
 * What the fan hears instead of their own provider, why, and how to get it back (issue 47). The
 * why and the hint open by default on a wide screen; on a phone they are one tap away, so the chat
 * stays in view. Its strings come with it (namespace `source`), outside the first bundle.
 */
export function SourceNotice(props: { choice: SourceChoice | null; isPreviewEnded: boolean }) {
  const { i18n } = useTranslation();
  const isMobile = useIsMobile();
  /** The fan's own open or close, which then holds whatever the width. */
  const [chosenOpen, setChosenOpen] = useState<boolean | null>(null);
  const isOpen = chosenOpen ?? !isMobile;
  if (!i18n.hasResourceBundle('de', SOURCE_NAMESPACE)) {
    i18n.addResourceBundle('de', SOURCE_NAMESPACE, sourceDe);
    i18n.addResourceBundle('en', SOURCE_NAMESPACE, sourceEn);
  }
  const t = i18n.getFixedT(null, SOURCE_NAMESPACE);
  const { choice } = props;
  if (!needsSourceNotice(choice)) return null;
  return (
    <div className="source-notice" role="status" data-testid="source-notice" data-source={choice.source} data-reason={choice.reason}>
      <details open={isOpen} onToggle={(e) => e.currentTarget.open !== isOpen && setChosenOpen(e.currentTarget.open)}>
        <summary className="source-notice__title">
          <strong>{t(`title.${choice.source}`)}</strong> <span className="source-notice__more">{t('whyLabel')}</span>
        </summary>
        <p className="source-notice__why">{t(`why.${choice.reason}`)}</p>
        <p className="hint source-notice__hint">{t(`hint.${choice.reason}`)}</p>
      </details>
      {props.isPreviewEnded && (
        <p className="source-notice__ended" data-testid="preview-ended">
          {t('previewEnded')}
        </p>
      )}
    </div>
  );
}
