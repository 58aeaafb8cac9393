// Every error the emulator answers is `{code, message}` (plus `detail` for query
// errors); handlers throw HttpError and the server turns it into that body.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail?: unknown,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

/** 404 whose message names the kind and the id, e.g. `notifier "ntf_1" not found`. */
export function notFound(kind: string, id: string): HttpError {
  return new HttpError(404, `${kind} ${JSON.stringify(id)} not found`);
}

export function conflict(message: string): HttpError {
  return new HttpError(409, message);
}

export function forbidden(message: string): HttpError {
  return new HttpError(403, message);
}

export function unauthorized(message: string): HttpError {
  return new HttpError(401, message);
}
