import type { ErrorBody } from '@fanfare/protocol';

type Detail = ErrorBody['detail'];

/** An error meant for the client: its status and `detail` are sent as they are. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: Detail,
    /** Response headers that go with the answer (e.g. `Retry-After` on a 429). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(typeof detail === 'string' ? detail : Array.isArray(detail) ? 'Validation failed' : detail.message);
    this.name = 'HttpError';
  }
}

export const badRequest = (detail: Detail) => new HttpError(400, detail);
export const unauthorized = (detail: Detail = 'Not authenticated') => new HttpError(401, detail);
export const forbidden = (detail: Detail = 'Not allowed') => new HttpError(403, detail);
export const notFound = (detail: Detail = 'Not found') => new HttpError(404, detail);
export const conflict = (detail: Detail) => new HttpError(409, detail);
export const payloadTooLarge = (detail: Detail) => new HttpError(413, detail);
export const unsupportedMedia = (detail: Detail) => new HttpError(415, detail);
export const unprocessable = (loc: (string | number)[], msg: string, type = 'value_error') =>
  new HttpError(422, [{ loc, msg, type }]);
export const badGateway = (detail: Detail) => new HttpError(502, detail);
