import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';
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

/**
 * The page snapshot; re-renders on every change (locale, timing, gate, login, editor edits). The
 * re-render is a transition, so a whole-page update (the runtime arriving, a language switch)
 * renders in slices and never blocks input for long.
 */
export function usePage(): PageView {
  const runtime = useRuntime();
  const [view, setView] = useState(runtime.getSnapshot);
  useEffect(() => {
    const update = () => startTransition(() => setView(runtime.getSnapshot()));
    update(); // a change between the first render and this subscription
    return runtime.subscribe(update);
  }, [runtime]);
  return view;
}
