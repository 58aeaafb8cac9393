// Annotations (`/v2/annotations`): events (a deploy, a config change) marked on the
// charts of their datasets. The list filters by dataset and by a time range that the
// annotation's [time, endTime] overlaps.
//
// Besides the org capability `annotations`, an annotation is the business of who may
// read its datasets: writing one needs `query|read` on every dataset it names (checked
// by name before the name is looked up, so that a caller without the grant learns
// nothing of which datasets exist), and one that names a dataset the caller may not
// query is neither listed nor found nor changed for it (the answer of an unknown id).
import { requireDatasetGrant, requireOrgGrant, type Caller } from "../auth";
import { hasDatasetGrant } from "../capabilities";
import { badRequest } from "../errors";
import type { AnnotationRecord } from "../model";
import { ok, type RequestContext, type Route } from "../routing";
import { nowIso, timestampMillis } from "../time";
import { bodyObject, optionalString, optionalTimestamp, type JsonObject } from "../validate";
import { createRoute, deleteRoute, getRoute, replaceRoute, type KindSpec } from "./crud";

const TYPE = /^[a-z0-9-]+$/;

function toWire(a: AnnotationRecord): JsonObject {
  const out: JsonObject = { id: a.id, datasets: a.datasets, type: a.type, time: a.time, title: a.title, description: a.description, url: a.url };
  if (a.endTime !== "") out.endTime = a.endTime;
  return out;
}

/** The dataset grant an annotation needs on each of its datasets. */
const DATASET_GRANT = ["query", "read"] as const;

function readable(caller: Caller, a: AnnotationRecord): boolean {
  return a.datasets.every((d) => hasDatasetGrant(caller.token, d, ...DATASET_GRANT));
}

const ANNOTATIONS: KindSpec<"annotations"> = {
  collection: "annotations",
  kind: "annotation",
  path: "/v2/annotations",
  idPrefix: "ann",
  capability: "annotations",
  readable,
  toWire,
};

function limited(body: JsonObject, key: string, max: number): string {
  const v = optionalString(body, key);
  if (v.length > max) throw badRequest(`"${key}" must have at most ${max} characters, got ${v.length}`);
  return v;
}

function parseAnnotation(ctx: RequestContext, id: string): AnnotationRecord {
  const body = bodyObject(ctx.json());
  const datasets = body.datasets;
  if (!Array.isArray(datasets) || datasets.length === 0 || datasets.some((d) => typeof d !== "string" || d === "")) {
    throw badRequest(`"datasets" is required: a non-empty array of dataset names`);
  }
  // Every grant before any lookup: the 400 below only ever answers names the caller may read.
  for (const name of datasets as string[]) requireDatasetGrant(ctx.caller, name, ...DATASET_GRANT);
  for (const name of datasets as string[]) if (!ctx.core.state.datasets.has(name)) throw badRequest(`"datasets": no dataset named ${JSON.stringify(name)}`);
  const type = limited(body, "type", 256);
  if (!TYPE.test(type)) throw badRequest(`"type" is required and must match ${TYPE.source}, got ${JSON.stringify(type)}`);
  const time = optionalTimestamp(body, "time") || nowIso(ctx.now);
  const endTime = optionalTimestamp(body, "endTime");
  if (endTime !== "" && timestampMillis(endTime) < timestampMillis(time)) throw badRequest(`"endTime" must not be before "time"`);
  const url = limited(body, "url", 512);
  if (url !== "" && !/^https?:\/\/\S+$/.test(url)) throw badRequest(`"url" must be an http(s) URL`);
  return { id, datasets: [...new Set(datasets as string[])], type, time, endTime, title: limited(body, "title", 256), description: limited(body, "description", 512), url };
}

function timeParam(ctx: RequestContext, name: string): number | undefined {
  const raw = ctx.query.get(name);
  if (raw === null || raw === "") return undefined;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw badRequest(`query parameter "${name}" must be an RFC 3339 timestamp, got ${JSON.stringify(raw)}`);
  return ms;
}

export const annotationRoutes: readonly Route[] = [
  {
    method: "GET",
    pattern: ANNOTATIONS.path,
    handle: (ctx) => {
      requireOrgGrant(ctx.caller, "annotations", "read");
      const wanted = (ctx.query.get("datasets") ?? "").split(",").map((d) => d.trim()).filter((d) => d !== "");
      const start = timeParam(ctx, "start");
      const end = timeParam(ctx, "end");
      const matches = [...ctx.core.state.annotations.values()].filter((a) => {
        if (!readable(ctx.caller, a)) return false;
        const from = timestampMillis(a.time);
        const to = a.endTime === "" ? from : timestampMillis(a.endTime);
        if (wanted.length > 0 && !a.datasets.some((d) => wanted.includes(d))) return false;
        return (start === undefined || to >= start) && (end === undefined || from <= end);
      });
      return ok(matches.sort((a, b) => a.time.localeCompare(b.time)).map(toWire));
    },
  },
  getRoute(ANNOTATIONS),
  createRoute(ANNOTATIONS, (ctx, id) => parseAnnotation(ctx, id)),
  replaceRoute(ANNOTATIONS, "update", (ctx, previous) => parseAnnotation(ctx, previous.id)),
  deleteRoute(ANNOTATIONS),
];
