/**
 * Which requests get access-log lines (issue 15): at the default level, `npm start` stays readable
 * (URLs and the first admin password are not buried under one line per asset or HLS segment), so
 * static files, catalog media (covers, HLS playlists and segments) and health probes are logged only
 * at `debug` and `trace`. API calls, pages and errors are always logged.
 */
const QUIET_PREFIXES = ['/assets/', '/media/', '/c/assets/', '/admin/assets/', '/favicon', '/healthz', '/readyz'];

/** True when a request to `url` gets no access-log lines at this log level. */
export function isQuietRequest(url: string, level: string): boolean {
  if (level === 'debug' || level === 'trace') return false;
  const path = url.split('?')[0] ?? url;
  return QUIET_PREFIXES.some((prefix) => path.startsWith(prefix)) || /\.(m3u8|ts|m4s|aac|mp4|js|css|woff2?|png|jpe?g|svg|webp|ico)$/i.test(path);
}
