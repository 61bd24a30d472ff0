import { FAQ_MATCH_ALL, type FaqEntry } from '@fanfare/protocol';

/**
 * FAQ filter (spec 2): an entry is shown when one of its locations matches the page name and the
 * user's service; 'All' in either field matches everything. An entry without locations shows
 * everywhere.
 */
export function filterFaq(entries: readonly FaqEntry[], page: string, service: string | null): FaqEntry[] {
  return entries.filter(
    (e) =>
      e.locations.length === 0 ||
      e.locations.some(
        (l) =>
          (l.page === FAQ_MATCH_ALL || l.page === page) &&
          (l.service === FAQ_MATCH_ALL || (service !== null && l.service === service)),
      ),
  );
}
