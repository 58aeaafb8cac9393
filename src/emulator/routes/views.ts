// Saved views (`/v2/views`): a named query over datasets. Writes need the org capability
// `views`. Reading is also open to a token whose viewCapabilities grant `query|read` on
// that view by name (or on "*"), since that grant is how access to one view is given.
// Changing or deleting a view needs the right to read it as well: a caller that may not
// read it gets the answer an unknown id gets.
import { requireOrgGrant, type Caller } from "../auth";
import { hasOrgGrant, WILDCARD } from "../capabilities";
import { newId } from "../core";
import { conflict, notFound } from "../errors";
import type { ViewRecord } from "../model";
import { requireQueryReadable } from "../query-routes";
import { NO_CONTENT, ok, type RequestContext, type Route } from "../routing";
import { bodyObject, optionalString, optionalStringArray, own, requiredString, type JsonObject } from "../validate";

const PATH = "/v2/views";

function toWire(view: ViewRecord, ctx: RequestContext): JsonObject {
  return {
    id: view.id,
    name: view.name,
    aplQuery: view.aplQuery,
    datasets: view.datasets,
    description: view.description,
    // Views are shared with the whole organization they belong to.
    sharedByOrg: ctx.core.orgId,
    sharedByOrgName: ctx.core.org.name,
  };
}

function mayRead(caller: Caller, view: ViewRecord): boolean {
  if (hasOrgGrant(caller.token, "views", "read")) return true;
  const caps = caller.token.viewCapabilities;
  return [own(caps, view.name), own(caps, WILDCARD)].some((grants) => grants !== undefined && (own(grants, "query")?.includes("read") ?? false));
}

function parseView(ctx: RequestContext, id: string, except?: string): ViewRecord {
  const body = bodyObject(ctx.json());
  const name = requiredString(body, "name");
  for (const other of ctx.core.viewsNamed(name)) {
    // Names are unique, so that one is taken is said; its id only to who may read it.
    if (other.id !== except) throw conflict(`a view named ${JSON.stringify(name)} exists already${mayRead(ctx.caller, other) ? ` (${other.id})` : ""}`);
  }
  return {
    id,
    name,
    aplQuery: requiredString(body, "aplQuery"),
    datasets: optionalStringArray(body, "datasets"),
    description: optionalString(body, "description"),
  };
}

/**
 * The view at `:id`, if the caller may read it. Otherwise the same answer whether the id
 * exists or not: the 403 of the org capability when the caller lacks it (a view it may
 * read by name is still shown), else 404.
 */
function readableView(ctx: RequestContext): ViewRecord {
  const id = ctx.params.id!;
  const view = ctx.core.state.views.get(id);
  if (!view || !mayRead(ctx.caller, view)) {
    requireOrgGrant(ctx.caller, "views", "read");
    throw notFound("view", id);
  }
  return view;
}

export const viewRoutes: readonly Route[] = [
  {
    method: "GET",
    pattern: PATH,
    handle: (ctx) => ok([...ctx.core.state.views.values()].filter((v) => mayRead(ctx.caller, v)).map((v) => toWire(v, ctx))),
  },
  {
    method: "GET",
    pattern: `${PATH}/:id`,
    handle: (ctx) => ok(toWire(readableView(ctx), ctx)),
  },
  {
    method: "POST",
    pattern: PATH,
    handle: async (ctx) => {
      requireOrgGrant(ctx.caller, "views", "create");
      const view = parseView(ctx, newId("view"));
      await requireQueryReadable(ctx, view.aplQuery);
      await ctx.core.store.tx().put("views", view.id, view).commit();
      return ok(toWire(view, ctx));
    },
  },
  {
    method: "PUT",
    pattern: `${PATH}/:id`,
    handle: async (ctx) => {
      requireOrgGrant(ctx.caller, "views", "update");
      const previous = readableView(ctx);
      const view = parseView(ctx, previous.id, previous.id);
      await requireQueryReadable(ctx, view.aplQuery);
      await ctx.core.store.tx().put("views", view.id, view).commit();
      return ok(toWire(view, ctx));
    },
  },
  {
    method: "DELETE",
    pattern: `${PATH}/:id`,
    handle: async (ctx) => {
      requireOrgGrant(ctx.caller, "views", "delete");
      const view = readableView(ctx);
      await ctx.core.store.tx().delete("views", view.id).commit();
      return NO_CONTENT;
    },
  },
];
