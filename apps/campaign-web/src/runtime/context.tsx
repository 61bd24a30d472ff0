import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { PageRuntime, PageView } from './types.ts';

const RuntimeContext = createContext<PageRuntime | null>(null);

export function RuntimeProvider({ runtime, children }: { runtime: PageRuntime; children: ReactNode }) {
  return <RuntimeContext.Provider value={runtime}>{children}</RuntimeContext.Provider>;
}

/** The runtime of this page (actions, `t`). */
export function useRuntime(): PageRuntime {
  const runtime = useContext(RuntimeContext);
  if (!runtime) throw new Error('useRuntime outside RuntimeProvider');
  return runtime;
}

/** The page snapshot; re-renders on every change (locale, timing, gate, login, editor edits). */
export function usePage(): PageView {
  const runtime = useRuntime();
  return useSyncExternalStore(runtime.subscribe, runtime.getSnapshot);
}
