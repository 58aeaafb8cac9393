// The HTTP client library. `npm run build` replaces the compiled file with a
// self-contained, minified bundle of `undici` (scripts/bundle-provider.js): the npm
// package carries one 0.5 MB file instead of undici's 1.7 MB node_modules tree.
export * from "undici";
