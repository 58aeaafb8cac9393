// The Prometheus client `ods watch` serves its metrics with. `npm run build` replaces the
// compiled file with a self-contained bundle of the `prom-client` package
// (scripts/bundle-provider.js), as for the pg driver: the npm package carries no
// node_modules tree for it, and jsii sees no dependency that is not a jsii module.
export { Counter, Gauge, Histogram, Registry } from "prom-client";
