// re2js, the RE2 engine regex.ts runs every pattern on. Built, this file is bundled in
// place with re2js (scripts/bundle-provider.js, like the other drivers), so the package
// ships no node_modules tree for it.
export { RE2JS, RE2JSException, RE2JSSyntaxException } from "re2js";
