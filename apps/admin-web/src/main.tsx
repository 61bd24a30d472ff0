import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { ApiError, createCmsApi } from './api/cms.ts';
import { readWebConfig } from './api/webConfig.ts';
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

const config = readWebConfig(document);
const root = createRoot(document.getElementById('root')!);
if (config.ok) {
  root.render(
    <StrictMode>
      <App api={api} session={session} config={config.config} queryClient={queryClient} />
    </StrictMode>,
  );
} else {
  // Only the CMS knows where the party API is: without its word the back office would guess.
  root.render(
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
      <h1>The back office cannot start</h1>
      <p>The server did not send its configuration: {config.detail}. Open the back office at the CMS&apos;s /admin/ address.</p>
    </main>,
  );
}
