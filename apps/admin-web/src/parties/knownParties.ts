/**
 * The party API has no "list parties" call yet, so the list shows the parties this browser has
 * created or opened (their ids kept in localStorage), each read with `GET /api/parties/{id}`.
 * When a list call exists, only this module changes.
 */
const KEY = 'fanfare.admin.parties';
const MAX = 200;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function knownPartyIds(store: Storage | null = storage()): string[] {
  try {
    const raw: unknown = JSON.parse(store?.getItem(KEY) ?? '[]');
    return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberParty(id: string, store: Storage | null = storage()): void {
  const ids = [id, ...knownPartyIds(store).filter((x) => x !== id)].slice(0, MAX);
  store?.setItem(KEY, JSON.stringify(ids));
}

export function forgetParty(id: string, store: Storage | null = storage()): void {
  store?.setItem(KEY, JSON.stringify(knownPartyIds(store).filter((x) => x !== id)));
}
