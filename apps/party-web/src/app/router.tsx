/**
 * The app's hash router (spec 2 routes live in the address's `#`): the few pieces of a router the
 * screens use, in place of react-router, whose 38 KB were a quarter of the first load's own code
 * (issue 16: initial JS under 150 KB gzipped). Same names and shapes as react-router's, so screens
 * read as before.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type AnchorHTMLAttributes, type ReactElement, type ReactNode } from 'react';

export interface Location {
  /** The route: the part of the hash before `?`, always starting with `/`. */
  pathname: string;
  /** The query inside the hash (`?...`), or ''. */
  search: string;
}

export type NavigateFunction = (to: string, opts?: { replace?: boolean }) => void;

interface RouterState {
  location: Location;
  navigate: NavigateFunction;
  params: Record<string, string>;
}

const RouterContext = createContext<RouterState | null>(null);

/** Reads a location from `window.location.hash` (`#/waiting?x=1`; empty means `/`). */
export function parseHash(hash: string): Location {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  const q = raw.indexOf('?');
  const path = q >= 0 ? raw.slice(0, q) : raw;
  return { pathname: path.startsWith('/') ? path : `/${path}`, search: q >= 0 ? raw.slice(q) : '' };
}

/**
 * Matches a route pattern (`/grant/:grantToken`, `*`) against a pathname; returns its params or
 * null. A trailing slash is ignored, as react-router does.
 */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  if (pattern === '*') return {};
  const trim = (p: string) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p);
  const want = trim(pattern).split('/');
  const got = trim(pathname).split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) {
      if (!g) return null;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return null;
      }
    } else if (w !== g) return null;
  }
  return params;
}

/** Keeps the route in the address's hash; follows back, forward and typed addresses. */
export function HashRouter(props: { children: ReactNode }) {
  const [location, setLocation] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setLocation(parseHash(window.location.hash));
    window.addEventListener('hashchange', onChange);
    window.addEventListener('popstate', onChange);
    return () => {
      window.removeEventListener('hashchange', onChange);
      window.removeEventListener('popstate', onChange);
    };
  }, []);
  const navigate = useCallback<NavigateFunction>((to, opts) => {
    const url = `${window.location.pathname}${window.location.search}#${to}`;
    if (opts?.replace) window.history.replaceState(window.history.state, '', url);
    else window.history.pushState(null, '', url);
    // Neither call fires hashchange: the router updates itself.
    setLocation(parseHash(window.location.hash));
  }, []);
  const value = useMemo(() => ({ location, navigate, params: {} }), [location, navigate]);
  return <RouterContext.Provider value={value}>{props.children}</RouterContext.Provider>;
}

function useRouter(): RouterState {
  const r = useContext(RouterContext);
  if (!r) throw new Error('router hook outside HashRouter');
  return r;
}

export function useLocation(): Location {
  return useRouter().location;
}

export function useNavigate(): NavigateFunction {
  return useRouter().navigate;
}

/** The `:name` parts of the route that matched. */
export function useParams(): Record<string, string | undefined> {
  return useRouter().params;
}

/** One route; only meaningful inside `Routes`. */
export function Route(_props: { path: string; element: ReactNode }): ReactElement | null {
  return null;
}

/** Renders the first `Route` child whose path matches the location. */
export function Routes(props: { children: ReactNode }) {
  const router = useRouter();
  const routes = (Array.isArray(props.children) ? props.children : [props.children]) as ReactElement<{ path: string; element: ReactNode }>[];
  for (const route of routes) {
    if (!route?.props) continue;
    const params = matchPath(route.props.path, router.location.pathname);
    if (params) return <RouterContext.Provider value={{ ...router, params }}>{route.props.element}</RouterContext.Provider>;
  }
  return null;
}

/** Goes to `to` once rendered (react-router's `<Navigate>`). */
export function Navigate(props: { to: string; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => {
    navigate(props.to, { replace: props.replace });
  }, [navigate, props.to, props.replace]);
  return null;
}

/** A link to a route: a plain anchor to `#to`, so opening it in a new tab works too. */
export function Link(props: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const { to, onClick, ...rest } = props;
  const navigate = useNavigate();
  return (
    <a
      {...rest}
      href={`#${to}`}
      onClick={(e) => {
        onClick?.(e);
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(to);
      }}
    />
  );
}
