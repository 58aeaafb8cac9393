// The proxy libraries the client uses when the environment names a proxy: proxy-from-env
// decides from HTTPS_PROXY / HTTP_PROXY / ALL_PROXY and NO_PROXY (curl's rules) whether and
// through which proxy a URL goes; https-proxy-agent tunnels through it (CONNECT),
// http-proxy-agent forwards plain HTTP requests to it. Bundled into one file at build
// (scripts/bundle-provider.js), like the pg driver.
/** The proxy URL for `url` from the environment, "" for a direct connection (proxy-from-env ships no types). */
export const getProxyForUrl = (require("proxy-from-env") as { getProxyForUrl: (url: string) => string }).getProxyForUrl;
export { HttpsProxyAgent } from "https-proxy-agent";
export { HttpProxyAgent } from "http-proxy-agent";
