import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import '@fanfare/ui/fonts.css';
import '@fanfare/ui/ui.css';
import './styles.css';
import { App } from './App.tsx';
import { RuntimeProvider } from './runtime/context.tsx';
import { bootRuntime } from './runtime/boot.ts';

const root = createRoot(document.getElementById('root')!);
const lang = document.documentElement.lang;

function renderFailure(err: unknown) {
  // Without its metadata or its runtime the page cannot work: say so plainly, offer a retry.
  console.error(err);
  root.render(
    <main className="page page--failed">
      <p role="alert">{lang === 'en' ? 'The page could not be loaded.' : 'Die Seite konnte nicht geladen werden.'}</p>
      <button type="button" onClick={() => window.location.reload()}>
        {lang === 'en' ? 'Try again' : 'Erneut versuchen'}
      </button>
    </main>,
  );
}

try {
  const { runtime, ready } = bootRuntime();
  // A transition lets React render in slices that yield to the browser: the server's first screen
  // stays painted and the main thread is never blocked for long while the page takes over.
  startTransition(() =>
    root.render(
      <StrictMode>
        <RuntimeProvider runtime={runtime}>
          <App />
        </RuntimeProvider>
      </StrictMode>,
    ),
  );
  ready.catch(renderFailure);
} catch (err) {
  renderFailure(err);
}
