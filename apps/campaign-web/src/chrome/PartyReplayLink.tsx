import { CAMPAIGN_META } from '@fanfare/protocol';
import { useRuntime } from '../runtime/context.tsx';

/** The replay address the CMS wrote into the page (`fanfare:party-replay`), when the campaign's party has one. */
export function partyReplayUrl(doc: Document | undefined = typeof document === 'undefined' ? undefined : document): string | null {
  const raw = doc?.querySelector(`meta[name="${CAMPAIGN_META.partyReplay}"]`)?.getAttribute('content') ?? null;
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** Party Replay (issue 47): the campaign page of a party links to its replay once it is built. */
export function PartyReplayLink() {
  const rt = useRuntime();
  const url = partyReplayUrl();
  if (!url) return null;
  return (
    <section className="module party-replay" aria-label={rt.t('partyReplay.title')}>
      <a className="party-replay__link" href={url} data-testid="campaign-party-replay">
        {rt.t('partyReplay.link')}
      </a>
    </section>
  );
}
