// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { HashRouter, Link, Navigate, Route, Routes, parseHash, useLocation, useNavigate, useParams } from './router.tsx';

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{`${pathname}${search}`}</p>;
}
function Grant() {
  return <p>grant {useParams().grantToken}</p>;
}
function Go(props: { to: string; replace?: boolean }) {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate(props.to, { replace: props.replace })}>
      go {props.to}
    </button>
  );
}

function app() {
  return render(
    <HashRouter>
      <Where />
      <Routes>
        <Route path="/" element={<Link to="/register">join</Link>} />
        <Route path="/register" element={<Go to="/waiting" replace />} />
        <Route path="/waiting" element={<p>waiting room</p>} />
        <Route path="/grant/:grantToken" element={<Grant />} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </HashRouter>,
  );
}

describe('hash router (spec 2 routes in the hash; wouter in place of react-router for the bundle size)', () => {
  it('reads the route and the query inside the hash', () => {
    expect(parseHash('')).toEqual({ pathname: '/', search: '' });
    expect(parseHash('#/waiting?admin=true')).toEqual({ pathname: '/waiting', search: '?admin=true' });
    expect(parseHash('#register')).toEqual({ pathname: '/register', search: '' });
  });
  it('matches a route with the query inside the hash, decodes params, and shows the query', async () => {
    window.location.hash = '#/waiting?admin=true';
    app();
    expect(screen.getByText('waiting room')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/waiting?admin=true');
    act(() => {
      window.location.hash = '#/grant/a%20b';
    });
    await screen.findByText('grant a b');
  });
  it('keeps the same location object until the route changes, so effects that depend on it do not rerun', () => {
    window.location.hash = '#/waiting';
    const seen: object[] = [];
    function Record() {
      seen.push(useLocation());
      return null;
    }
    const view = render(
      <HashRouter>
        <Record />
      </HashRouter>,
    );
    view.rerender(
      <HashRouter>
        <Record />
      </HashRouter>,
    );
    expect(seen.length).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(1);
  });
  it('follows a link (history entry), a replace navigation (no new entry) and the back button', async () => {
    window.location.hash = '#/';
    app();
    const before = window.history.length;
    await userEvent.click(screen.getByRole('link', { name: 'join' }));
    expect(screen.getByTestId('where').textContent).toBe('/register');
    expect(window.location.hash).toBe('#/register');
    expect(window.history.length).toBe(before + 1);
    await userEvent.click(screen.getByRole('button', { name: 'go /waiting' }));
    expect(screen.getByText('waiting room')).toBeTruthy();
    expect(window.location.hash).toBe('#/waiting');
    expect(window.history.length).toBe(before + 1);
    // A typed address or the back button changes the hash: the router follows.
    act(() => {
      window.location.hash = '#/grant/tok-1';
    });
    await screen.findByText('grant tok-1');
  });
  it('sends an unknown route to the entry page, keeping no entry for it', async () => {
    window.location.hash = '#/nowhere';
    app();
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/'));
    expect(screen.getByRole('link', { name: 'join' }).getAttribute('href')).toBe('#/register');
  });
});
