import type { FieldChange } from '@fanfare/protocol';

/** Longest value shown on either side of a change (a whole module list can be long). */
const MAX_VALUE_CHARS = 2_000;

const show = (v: unknown): string | null => {
  if (v === undefined) return null;
  const text = JSON.stringify(v);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An array of objects with unique string `id`s (page modules, newsletters) is compared by id. */
function byId(list: unknown[]): Map<string, unknown> | null {
  const map = new Map<string, unknown>();
  for (const item of list) {
    if (!isPlainObject(item) || typeof item.id !== 'string' || map.has(item.id)) return null;
    map.set(item.id, item);
  }
  return map;
}

/**
 * The fields that differ between two JSON values, as readable paths: `name`,
 * `doc.data.page.modules[hero].title.de`, `doc.enabled_services`. Objects are walked key by key,
 * lists of items with ids item by item (so a moved module is one `order` change, not every field);
 * other lists are one value.
 */
export function diffValues(before: unknown, after: unknown, path = ''): FieldChange[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => diffValues(before[k], after[k], path ? `${path}.${k}` : k));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const a = byId(before);
    const b = byId(after);
    if (a && b) {
      const ids = [...new Set([...a.keys(), ...b.keys()])];
      const changes = ids.flatMap((id) => diffValues(a.get(id), b.get(id), `${path}[${id}]`));
      const orderBefore = [...a.keys()].filter((id) => b.has(id));
      const orderAfter = [...b.keys()].filter((id) => a.has(id));
      if (JSON.stringify(orderBefore) !== JSON.stringify(orderAfter)) changes.push({ path: `${path}.order`, before: show(orderBefore), after: show(orderAfter) });
      return changes;
    }
  }
  return [{ path: path || '(all)', before: show(before), after: show(after) }];
}
