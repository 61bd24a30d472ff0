import DOMPurify from 'dompurify';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParty } from '../app/context.tsx';
import { filterFaq } from '../rules/faq.ts';
import { ThemedModal } from './ThemedModal.tsx';

const NONE: never[] = [];

/** FAQ answers are HTML: sanitized here as well as at the server before they reach the page. */
export function sanitizeHtml(html: string): string {
  // DOMPurify hands back its input untouched where it cannot run: show plain text there instead.
  if (!DOMPurify.isSupported) return escapeHtml(html.replace(/<[^>]*>/g, ' '));
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input'], FORBID_ATTR: ['style'] });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The FAQ modal (spec 2): an accordion of questions, each answer with an optional image and
 * sanitized HTML, filtered by page and service ('All' matches everything). Loaded on demand.
 */
export default function FaqModal(props: { page: string; onClose: () => void }) {
  const { t } = useTranslation();
  const entries = useParty((s) => s.party?.frontend.faq) ?? NONE;
  const service = useParty((s) => s.user?.service ?? s.service);
  const shown = filterFaq(entries, props.page, service);
  const [open, setOpen] = useState<number | null>(null);
  const baseId = useId();
  return (
    <ThemedModal title={t('faq.title')} onClose={props.onClose} wide>
      {shown.length === 0 && <p>{t('faq.empty')}</p>}
      <div className="accordion">
        {shown.map((entry, i) => {
          const isOpen = open === i;
          const panelId = `${baseId}-panel-${i}`;
          return (
            <div className="accordion__item" key={`${i}-${entry.question}`}>
              <h3>
                <button type="button" className="accordion__toggle" aria-expanded={isOpen} aria-controls={panelId} onClick={() => setOpen(isOpen ? null : i)}>
                  <span>{entry.question}</span>
                  <span aria-hidden="true">{isOpen ? '−' : '+'}</span>
                </button>
              </h3>
              <div id={panelId} className="accordion__panel" hidden={!isOpen}>
                {entry.image && <img src={entry.image} alt="" className="accordion__image" />}
                <div dangerouslySetInnerHTML={{ __html: sanitizeHtml(entry.answer) }} />
              </div>
            </div>
          );
        })}
      </div>
    </ThemedModal>
  );
}
