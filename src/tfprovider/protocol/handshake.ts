// go-plugin's start-up contract, as Terraform drives it: Terraform runs the provider
// with a magic cookie and the protocol versions it speaks in the environment, and the
// provider answers with ONE line on stdout saying where and how to connect.

/** The cookie Terraform sets for every provider it starts (a constant, not a secret). */
export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

/** go-plugin's own protocol version (first field of the handshake line). */
const CORE_PROTOCOL_VERSION = 1;
/** Terraform's plugin protocol major version we serve (second field). */
export const APP_PROTOCOL_VERSION = 6;

export type PluginEnv = Readonly<Record<string, string | undefined>>;

export interface PluginLaunch {
  /** Terraform's client certificate (PEM) to require on every connection; null: plaintext. */
  readonly clientCertPem: string | null;
  /** Directory for the unix socket, when Terraform asks for one. */
  readonly socketDir?: string;
}

export type LaunchCheck = { readonly ok: true; readonly launch: PluginLaunch } | { readonly ok: false; readonly message: string };

/**
 * Decides from the environment whether Terraform started us and how to serve.
 * The refusal message is for a human who ran the binary by hand.
 */
export function checkLaunchEnvironment(env: PluginEnv): LaunchCheck {
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    return {
      ok: false,
      message:
        "This binary is a plugin for Terraform and is not meant to be run directly.\n" +
        "Declare the provider in a Terraform configuration (or run `ods terraform install`) and run terraform.\n",
    };
  }
  const versions = (env.PLUGIN_PROTOCOL_VERSIONS ?? "").split(",").map((v) => v.trim());
  if (!versions.includes(String(APP_PROTOCOL_VERSION))) {
    return {
      ok: false,
      message:
        `terraform-provider-ods speaks plugin protocol ${APP_PROTOCOL_VERSION}, but this Terraform offers ` +
        `${JSON.stringify(env.PLUGIN_PROTOCOL_VERSIONS ?? "")}. Use Terraform 1.0 or later.\n`,
    };
  }
  // TF_DISABLE_PLUGIN_TLS (any non-empty value) turns mTLS off on both sides.
  const tlsDisabled = (env.TF_DISABLE_PLUGIN_TLS ?? "") !== "";
  const clientCert = env.PLUGIN_CLIENT_CERT ?? "";
  const launch: PluginLaunch = {
    clientCertPem: !tlsDisabled && clientCert !== "" ? clientCert : null,
    ...(env.PLUGIN_UNIX_SOCKET_DIR ? { socketDir: env.PLUGIN_UNIX_SOCKET_DIR } : {}),
  };
  return { ok: true, launch };
}

export interface ListenAddress {
  readonly network: "unix" | "tcp";
  /** Socket path, or host:port. */
  readonly address: string;
}

/**
 * `1|6|unix|/path|grpc|CERT`: CERT is the server certificate in DER, base64 WITHOUT
 * padding (go-plugin decodes it with the unpadded alphabet); empty without TLS.
 */
export function handshakeLine(listen: ListenAddress, certDer: Buffer | null): string {
  const cert = certDer ? certDer.toString("base64").replace(/=+$/, "") : "";
  return [CORE_PROTOCOL_VERSION, APP_PROTOCOL_VERSION, listen.network, listen.address, "grpc", cert].join("|");
}
