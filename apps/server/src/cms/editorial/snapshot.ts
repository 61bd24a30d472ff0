import type { CampaignStatus } from '@fanfare/protocol';
import { parseJson } from '../../platform/db/columns.ts';
import { docOf, type CampaignDoc, type CmsCampaignRow } from '../campaigns/queries.ts';

/** A campaign as one version holds it: the row's own fields and the document. */
export interface CampaignSnapshot {
  name: string;
  slug: string;
  starts_at: number | null;
  ends_at: number | null;
  doc: CampaignDoc;
}

export function snapshotOf(row: Pick<CmsCampaignRow, 'name' | 'slug' | 'starts_at' | 'ends_at' | 'doc'>): CampaignSnapshot {
  return { name: row.name, slug: row.slug, starts_at: row.starts_at, ends_at: row.ends_at, doc: docOf(row) };
}

export function parseSnapshot(json: string): CampaignSnapshot | null {
  const s = parseJson<Partial<CampaignSnapshot> | null>(json, null);
  if (!s || typeof s.name !== 'string' || typeof s.slug !== 'string') return null;
  return { name: s.name, slug: s.slug, starts_at: s.starts_at ?? null, ends_at: s.ends_at ?? null, doc: docOf({ doc: JSON.stringify(s.doc ?? {}) }) };
}

/** The row's fields as a version would set them. */
export function rowFieldsOf(s: CampaignSnapshot): Pick<CmsCampaignRow, 'name' | 'slug' | 'starts_at' | 'ends_at' | 'doc'> {
  return { name: s.name, slug: s.slug, starts_at: s.starts_at, ends_at: s.ends_at, doc: JSON.stringify(s.doc) };
}

/** Where a campaign stands (see `CAMPAIGN_STATUSES`). */
export function statusOf(row: Pick<CmsCampaignRow, 'published_doc' | 'publish_at' | 'name' | 'slug' | 'starts_at' | 'ends_at' | 'doc'>): CampaignStatus {
  if (row.published_doc === null) return row.publish_at !== null ? 'scheduled' : 'draft';
  return row.published_doc === JSON.stringify(snapshotOf(row)) ? 'published' : 'changed';
}

// ---------------------------------------------------------------------------------------------
// Per-locale publish
// ---------------------------------------------------------------------------------------------

/** The module fields that hold a text per locale (`LocalizedText` in the page schema). */
const LOCALIZED_KEYS = ['title', 'subtitle', 'ended_text', 'text', 'body', 'button_label', 'ticket_label'] as const;

type Texts = Record<string, string>;
const isTexts = (v: unknown): v is Texts => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');

/** `draft`'s texts of `locales` over `published`'s texts of every other locale. */
function mergeTexts(draft: Texts | undefined, published: Texts | undefined, locales: ReadonlySet<string>): Texts {
  const out: Texts = {};
  for (const [k, v] of Object.entries(published ?? {})) if (!locales.has(k)) out[k] = v;
  for (const [k, v] of Object.entries(draft ?? {})) if (locales.has(k)) out[k] = v;
  return out;
}

type ModuleLike = Record<string, unknown> & { id?: unknown };

/**
 * What publishing only `locales` makes public: the draft's structure and settings, with the texts
 * (module texts, translations, newsletters' per-locale ids and consent texts) of the other
 * locales as they were published (a module new in the draft has only the chosen
 * locales' texts, so the others fall back to the default locale's).
 */
export function publishLocales(draft: CampaignSnapshot, published: CampaignSnapshot | null, locales: readonly string[]): CampaignSnapshot {
  const chosen = new Set(locales);
  const publishedModules = new Map<string, ModuleLike>();
  for (const m of (published?.doc.data.page?.modules ?? []) as ModuleLike[]) if (typeof m.id === 'string') publishedModules.set(m.id, m);
  const page = draft.doc.data.page;
  const modules = (page?.modules ?? []).map((m) => {
    const before = publishedModules.get(m.id);
    const merged: ModuleLike = { ...m };
    for (const key of LOCALIZED_KEYS) {
      const value = (m as ModuleLike)[key];
      if (!isTexts(value)) continue;
      const old = before?.[key];
      merged[key] = mergeTexts(value, isTexts(old) ? old : undefined, chosen);
    }
    return merged;
  });
  const draftI18n = draft.doc.i18n;
  const publishedTranslations = published?.doc.i18n?.translations ?? [];
  const i18n = draftI18n
    ? {
        ...draftI18n,
        translations: [
          ...publishedTranslations.filter((t) => !chosen.has(t.locale)),
          ...(draftI18n.translations ?? []).filter((t) => chosen.has(t.locale)),
        ],
      }
    : draftI18n;
  // A newsletter's per-locale entry (address book, form and consent text) is one locale's
  // setting: the other locales keep what they published, a new newsletter offers only the chosen.
  const publishedNewsletters = new Map((published?.doc.newsletters ?? []).map((n) => [n.id, n]));
  const newsletters = (draft.doc.newsletters ?? []).map((n) => {
    const locales: typeof n.locales = {};
    for (const [k, v] of Object.entries(publishedNewsletters.get(n.id)?.locales ?? {})) if (!chosen.has(k)) locales[k] = v;
    for (const [k, v] of Object.entries(n.locales)) if (chosen.has(k)) locales[k] = v;
    return { ...n, locales };
  });
  return {
    ...draft,
    doc: {
      ...draft.doc,
      newsletters,
      i18n,
      data: page ? ({ ...draft.doc.data, page: { ...page, modules } } as CampaignDoc['data']) : draft.doc.data,
    },
  };
}
