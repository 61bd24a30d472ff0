import pino, { type DestinationStream, type Logger } from "pino";
import { redactSecrets } from "./redact.ts";

/**
 * JSON logs on stdout; every request line carries its request id (`reqId`). Headers with
 * credentials are removed by path, and every finished line passes through `redactSecrets`, so a
 * token in a URL or query string (socket connect, confirmation links, OAuth codes) never lands.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
): Logger {
  return pino(
    {
      level,
      base: { service: "fanfare" },
      redact: [
        "req.headers.authorization",
        'req.headers["x-cms-token"]',
        'req.headers["token-gate-access-key"]',
      ],
      hooks: { streamWrite: redactSecrets },
    },
    destination,
  );
}
