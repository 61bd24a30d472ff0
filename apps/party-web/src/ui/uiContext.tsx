import { createContext, useContext } from 'react';

/** Shell-level overlays any screen may open. */
export interface UiActions {
  openFaq(): void;
  openVideo(url: string): void;
  /** The page name used by the FAQ filter (spec 2). */
  page: string;
  isMobile: boolean;
}

export const UiContext = createContext<UiActions>({ openFaq: () => undefined, openVideo: () => undefined, page: 'home', isMobile: false });

export function useUi(): UiActions {
  return useContext(UiContext);
}
