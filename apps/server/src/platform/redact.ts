/**
 * Secrets that travel in URLs (socket `access_token`, newsletter and password-reset tokens, OAuth
 * codes, grant links) must never reach a log line. `redactSecrets` masks them in any text; the
 * logger runs every line through it, so no call site has to remember.
 */

/** Query and fragment parameters whose values are credentials. */
const SECRET_PARAMS = [
  "access_token",
  "refresh_token",
  "id_token",
  "service_token",
  "music_user_token",
  "grant_token",
  "grant",
  "token",
  "code",
  "password",
  "new_password",
  "client_secret",
  "secret",
  "key",
  "access_key",
];

const PARAM_PATTERN = new RegExp(
  `([?&#;](?:${SECRET_PARAMS.join("|")})=)[^&#"\\s\\\\]*`,
  "gi",
);
/** Path segments that are credentials themselves: `/grant/{token}`, `/grants/{token}`. */
const PATH_PATTERN = /(\/grants?\/)(?!(?:spotify|apple)\/)[^/?#"\s\\]+/gi;

export const REDACTED = "[redacted]";

export function redactSecrets(text: string): string {
  return text
    .replace(PARAM_PATTERN, `$1${REDACTED}`)
    .replace(PATH_PATTERN, `$1${REDACTED}`);
}
