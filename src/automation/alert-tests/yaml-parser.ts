// The YAML reader of alert test files (the maintained `yaml` package), bundled into one
// file at build (scripts/bundle-provider.js) like the pg driver and the proxy agents, so
// the package ships no node_modules tree for it.
export { LineCounter, isNode, parseDocument } from "yaml";
