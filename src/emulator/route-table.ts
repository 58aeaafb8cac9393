// Every route the emulator serves, in the order the router tries them. One table, so
// that the server and the tests that must cover every route (test/hostile/
// write-authorization.test.ts) read the same list: a route added here without its
// authorization case fails that test.
import { queryRoutes } from "./query-routes";
import type { Route } from "./routing";
import { annotationRoutes } from "./routes/annotations";
import { dashboardRoutes } from "./routes/dashboards";
import { datasetRoutes } from "./routes/datasets";
import { ingestRoutes } from "./routes/ingest";
import { monitorRoutes } from "./routes/monitors";
import { notifierRoutes } from "./routes/notifiers";
import { roleRoutes } from "./routes/roles";
import { starredQueryRoutes } from "./routes/starred-queries";
import { tokenRoutes } from "./routes/tokens";
import { userRoutes } from "./routes/users";
import { viewRoutes } from "./routes/views";
import { virtualFieldRoutes } from "./routes/virtual-fields";

export const ROUTE_TABLE: readonly Route[] = [
  ...notifierRoutes,
  ...roleRoutes,
  ...tokenRoutes,
  ...virtualFieldRoutes,
  ...starredQueryRoutes,
  ...datasetRoutes,
  ...ingestRoutes,
  ...queryRoutes,
  ...monitorRoutes,
  ...userRoutes,
  ...viewRoutes,
  ...dashboardRoutes,
  ...annotationRoutes,
];
