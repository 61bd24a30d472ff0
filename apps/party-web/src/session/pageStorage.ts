/**
 * The page's localStorage, or a store that lasts as long as the page where the browser refuses
 * it: the party app framed by a back office on another site (the editor's preview) is a third
 * party there, and a browser that blocks third-party storage throws on `localStorage`.
 */
export function pageStorage(win: Pick<Window, 'localStorage'>): Storage {
  try {
    const storage = win.localStorage;
    storage.getItem('fanfare.probe');
    return storage;
  } catch {
    return pageLifetimeStorage();
  }
}

function pageLifetimeStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, String(v)),
  };
}
