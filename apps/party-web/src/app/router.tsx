/**
 * The app's routes live in the address's hash (spec 2). Routing is wouter's (2 KB gz, in place of
 * react-router's 38 KB, issue 16: initial JS under 150 KB gzipped); this module only teaches it our
 * hash convention, where the query sits inside the hash (`#/waiting?admin=true`), and keeps the
 * react-router names the screens were written against.
 */
import { useMemo, useSyncExternalStore, type AnchorHTMLAttributes, type ReactNode } from 'react';
import { Link as WouterLink, Redirect, Route as WouterRoute, Router, Switch, useLocation as useWouterLocation, useParams as useWouterParams, useSearch } from 'wouter';

export interface Location {
  /** The route: the part of the hash before `?`, always starting with `/`. */
  pathname: string;
  /** The query inside the hash (`?...`), or ''. */
  search: string;
}

export type NavigateFunction = (to: string, opts?: { replace?: boolean }) => void;

/** Reads a location from `window.location.hash` (`#/waiting?x=1`; empty means `/`). */
export function parseHash(hash: string): Location {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  const q = raw.indexOf('?');
  const path = q >= 0 ? raw.slice(0, q) : raw;
  return { pathname: path.startsWith('/') ? path : `/${path}`, search: q >= 0 ? raw.slice(q) : '' };
}

// Back, forward and typed addresses fire hashchange; our own navigations dispatch one too.
function subscribe(onChange: () => void) {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}
const readHash = () => window.location.hash;

function navigateHash(to: string, opts?: { replace?: boolean }) {
  const url = `${window.location.pathname}${window.location.search}#${to}`;
  if (opts?.replace) window.history.replaceState(window.history.state, '', url);
  else window.history.pushState(null, '', url);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

/** wouter's location hook for our hash: the path without the hash's query. */
function useHashPath(): [string, NavigateFunction] {
  return [parseHash(useSyncExternalStore(subscribe, readHash)).pathname, navigateHash];
}
/** wouter's search hook for our hash: the query inside the hash, without `?`. */
function useHashSearch(): string {
  return parseHash(useSyncExternalStore(subscribe, readHash)).search.slice(1);
}

export function HashRouter(props: { children: ReactNode }) {
  return (
    <Router hook={useHashPath} searchHook={useHashSearch} hrefs={(href) => `#${href}`}>
      {props.children}
    </Router>
  );
}

/** The same object until the route changes, so effects may depend on it. */
export function useLocation(): Location {
  const [pathname] = useWouterLocation();
  const search = useSearch();
  return useMemo(() => ({ pathname, search: search ? `?${search}` : '' }), [pathname, search]);
}

export function useNavigate(): NavigateFunction {
  return useWouterLocation()[1];
}

/** The `:name` parts of the route that matched. */
export function useParams(): Record<string, string | undefined> {
  return useWouterParams();
}

/** One route; `*` is the catch-all. Only meaningful inside `Routes`. */
export function Route(props: { path: string; element: ReactNode }) {
  return <WouterRoute path={props.path === '*' ? '*' : props.path}>{props.element}</WouterRoute>;
}

/** Renders the first `Route` child whose path matches the location. */
export function Routes(props: { children: ReactNode }) {
  return <Switch>{props.children}</Switch>;
}

/** Goes to `to` once rendered (react-router's `<Navigate>`). */
export function Navigate(props: { to: string; replace?: boolean }) {
  return <Redirect to={props.to} replace={props.replace} />;
}

/** A link to a route: a plain anchor to `#to`, so opening it in a new tab works too. */
export function Link(props: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  return <WouterLink {...props} />;
}
