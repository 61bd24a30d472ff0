import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { ApiError, createCmsApi } from './api/cms.ts';
import { createSessionStore } from './auth/session.ts';
import { App, QueryClient } from './app/App.tsx';

const session = createSessionStore(window.sessionStorage);
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A refusal (4xx) will not change by asking again; a network hiccup may.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});
// A 401 on any call means the session ended (expired or revoked): sign out once, drop cached data.
const api = createCmsApi({
  baseUrl: window.location.origin,
  token: session.token,
  onExpired: () => {
    session.signOut(true);
    queryClient.clear();
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App api={api} session={session} queryClient={queryClient} />
  </StrictMode>,
);
