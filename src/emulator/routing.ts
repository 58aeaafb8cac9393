// Routes: a method, a path pattern with `:param` segments, and a handler. Handlers
// check the caller's capabilities themselves, because for dataset-scoped kinds the
// capability depends on the object (its dataset), known only inside the handler.
import type { Caller } from "./auth";
import type { EmulatorCore } from "./core";
import { badRequest, HttpError } from "./errors";
import { stringEnd } from "./json-text";

export const MiB = 1024 * 1024;
export const DEFAULT_BODY_LIMIT = MiB;

export interface Answer {
  status: number;
  body?: unknown;
}

export interface RequestContext {
  core: EmulatorCore;
  caller: Caller;
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  contentType: string;
  rawBody: Buffer;
  /** When the request arrived (ms since the epoch). */
  now: number;
  /** The body parsed as JSON (undefined when empty); 400 when it is not JSON. */
  json(): unknown;
}

export interface Route {
  method: "GET" | "POST" | "PUT" | "DELETE";
  pattern: string;
  /** Bytes accepted before 413 (default 1 MiB). */
  bodyLimit?: number;
  handle(ctx: RequestContext): Answer | Promise<Answer>;
}

/** A body already serialized (a query answer a worker wrote as JSON text): sent as is. */
export class JsonText {
  constructor(readonly text: string) {}
}

export function ok(body: unknown): Answer {
  return { status: 200, body };
}

export const NO_CONTENT: Answer = { status: 204 };

/**
 * How deeply a request body may nest objects and arrays. Deeper bodies are refused
 * before they are parsed: storing one would overflow JSON.stringify on the way to the
 * journal and on every later answer that includes it.
 */
export const MAX_JSON_DEPTH = 100;

/** The 400 for a body that nests objects and arrays deeper than MAX_JSON_DEPTH. */
export const tooDeep = (): HttpError => badRequest(`request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`);

/** 400 when JSON text nests deeper than MAX_JSON_DEPTH (a scan; parsing checks the rest). */
export function checkJsonDepth(text: string): void {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Over the string at once (most of an event's text).
      const j = stringEnd(text, i);
      if (j === -1) return; // unterminated: JSON.parse says so
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) throw tooDeep();
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
}

export function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString("utf8");
  checkJsonDepth(text);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw badRequest(`malformed JSON body: ${(err as Error).message}`);
  }
}

interface CompiledRoute {
  route: Route;
  segments: string[];
}

export type RouteMatch = { route: Route; params: Record<string, string> } | { error: HttpError };

export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(routes: readonly Route[]): this {
    for (const route of routes) this.routes.push({ route, segments: route.pattern.split("/").slice(1) });
    return this;
  }

  match(method: string, path: string): RouteMatch {
    let parts: string[];
    try {
      parts = path.split("/").slice(1).map((p) => decodeURIComponent(p));
    } catch {
      return { error: badRequest(`malformed percent-encoding in path ${JSON.stringify(path)}`) };
    }
    let pathKnown = false;
    for (const { route, segments } of this.routes) {
      const params = matchSegments(segments, parts);
      if (!params) continue;
      pathKnown = true;
      if (route.method === method) return { route, params };
    }
    return pathKnown
      ? { error: new HttpError(405, `method ${method} not allowed on ${path}`) }
      : { error: new HttpError(404, `no such endpoint: ${method} ${path}`) };
  }
}

function matchSegments(segments: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const part = parts[i]!;
    if (segment.startsWith(":")) {
      if (part === "") return undefined;
      params[segment.slice(1)] = part;
    } else if (segment !== part) {
      return undefined;
    }
  }
  return params;
}
