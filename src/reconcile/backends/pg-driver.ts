// The PostgreSQL driver the `pg` backend uses. `npm run build` replaces the compiled file
// with a self-contained bundle of the `pg` package (scripts/bundle-provider.js), so the
// npm package carries ~100 kB of driver instead of 500 kB of node_modules, and installs
// without pulling pg's native and Cloudflare variants.
export { Client } from "pg";
