// Extra CA certificates for HTTPS, loaded when the first HTTPS request needs them.
//
// Node reads NODE_EXTRA_CA_CERTS eagerly, at start-up, before any code runs: on these
// machines (set to the system bundle, 144 certificates) `node -e 0` takes 100 ms with it
// and 29 ms without (80 and 32 ms of CPU). Terraform starts the provider three times per
// command and only one of those processes calls the service, so the provider's launcher
// moves the variable to DEFERRED_CA_ENV (install.ts) and the HTTPS client adds the file
// here, once, to Node's own roots, which is what NODE_EXTRA_CA_CERTS means.
import * as fs from "node:fs";
import * as tls from "node:tls";

/** Where the provider's launcher puts the value of NODE_EXTRA_CA_CERTS. */
export const DEFERRED_CA_ENV = "ODS_DEFERRED_EXTRA_CA_CERTS";

let cached: { file: string; context: tls.SecureContext | undefined } | undefined;

/**
 * The TLS context for HTTPS requests when the launcher deferred NODE_EXTRA_CA_CERTS;
 * undefined otherwise (Node's defaults apply). A file that cannot be read is ignored with
 * a warning, as Node itself does with NODE_EXTRA_CA_CERTS.
 */
export function deferredCaContext(env: NodeJS.ProcessEnv = process.env): tls.SecureContext | undefined {
  const file = env[DEFERRED_CA_ENV];
  if (!file) return undefined;
  if (cached?.file === file) return cached.context;
  let context: tls.SecureContext | undefined;
  try {
    const extra = fs.readFileSync(file, "utf8");
    context = tls.createSecureContext({ ca: [...tls.rootCertificates, extra] });
  } catch (err) {
    process.emitWarning(`Ignoring extra certs from ${file}, load failed: ${(err as Error).message}`);
  }
  cached = { file, context };
  return context;
}
