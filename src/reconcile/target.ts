// Which service and organization each provider configuration talks to. Terraform's rule:
// a provider block's own url/token/org_id win, and the environment (ODS_URL, ODS_TOKEN,
// ODS_ORG_ID) fills only what the block leaves unset. Explicit --url/--token/--org-id
// override a stack's only provider configuration, and are refused where a stack has
// several (which one would they mean?). The token is never printed.
import { OdsApiError, OdsClient, resolveClientConfig, type License } from "../api";
import type { ProviderConfiguration } from "./stack";
import type { StateOrganization } from "./state";
import type { Values } from "../resources";
import { durationMillis } from "../resources/checks";

export interface TargetFlags {
  url?: string;
  token?: string;
  orgId?: string;
}

/** A provider configuration with its client and the organization it reaches. */
export interface Target {
  /** `ods` or `ods.ALIAS`. */
  provider: string;
  client: OdsClient;
  url: string;
  /** The organization id configured (block, environment or flag), if any. */
  orgId?: string;
  /** The organization the service answered for this target, once described. */
  organization?: StateOrganization;
  /** Its license, from the same read (a plan checks the apply against it without reading it again). */
  license?: License;
  /** The stack whose provider configuration this is, for messages. */
  stack?: string;
  /** Where the token came from (`--token`, `var.ods_token (from TF_VAR_ods_token)`, `ODS_TOKEN`, ...): never its value. */
  tokenSource: string;
}

export class TargetError extends Error {}

function literal(config: Values, key: string): string | undefined {
  const v = config[key];
  return typeof v === "string" && v !== "" && !v.includes("${") ? v : undefined;
}

/** Whether --url, --token or --org-id was given. */
export function hasTargetFlags(flags: TargetFlags): boolean {
  return flags.url !== undefined || flags.token !== undefined || flags.orgId !== undefined;
}

export function clientFor(flags: TargetFlags, providerConfig: Values = {}, env: NodeJS.ProcessEnv = process.env): OdsClient {
  return targetFor(flags, { key: "ods", config: providerConfig, implicit: false }, env).client;
}

/**
 * Runs a command's calls on one target, closing its client after; a refused token (401,
 * 403) or an unreachable service is said as `ods plan` says it: which command, the URL,
 * and where the token came from (never its value).
 */
export async function withTarget<T>(command: string, flags: TargetFlags, provider: ProviderConfiguration, fn: (client: OdsClient) => Promise<T>, env: NodeJS.ProcessEnv = process.env): Promise<T> {
  const target = targetFor(flags, provider, env);
  try {
    return await fn(target.client);
  } catch (e) {
    throw accessFailure(command, target.url, target.tokenSource, e);
  } finally {
    await target.client.close();
  }
}

/** The client of one provider configuration: flags, else the block, else the environment. */
/** Where the token of a provider configuration comes from, in the order targetFor reads it. */
function tokenSource(flags: TargetFlags, provider: ProviderConfiguration, env: NodeJS.ProcessEnv): string {
  if (flags.token !== undefined) return "the --token flag";
  if (literal(provider.config, "token")) return provider.sources?.token ?? `the token of provider block ${provider.key}`;
  return env.ODS_TOKEN !== undefined ? "ODS_TOKEN" : "nowhere (no token set)";
}

/** The service URL a provider configuration names (flag, block, then environment), if any. */
export function serviceUrlOf(flags: TargetFlags, provider: ProviderConfiguration, env: NodeJS.ProcessEnv): string | undefined {
  return flags.url ?? literal(provider.config, "url") ?? env.ODS_URL;
}

export function targetFor(flags: TargetFlags, provider: ProviderConfiguration, env: NodeJS.ProcessEnv = process.env, stack?: string): Target {
  const config = provider.config;
  for (const key of ["url", "token", "org_id"]) {
    const v = config[key];
    if (typeof v === "string" && v.includes("${")) {
      throw new TargetError(`provider ${provider.key}: ${key} is an expression the ods engine cannot evaluate before planning; use a literal, a variable, or the environment`);
    }
  }
  const rate = config.rate_limit_per_second;
  const timeout = literal(config, "timeout");
  const resolved = resolveClientConfig(
    {
      url: serviceUrlOf(flags, provider, env),
      token: flags.token ?? literal(config, "token") ?? env.ODS_TOKEN,
      orgId: flags.orgId ?? literal(config, "org_id") ?? env.ODS_ORG_ID,
      rateLimitPerSecond: typeof rate === "number" ? rate : undefined,
      timeoutMs: timeout ? durationMillis(timeout) : undefined,
    },
    // Already merged above; the client must not fill from the environment again.
    {},
  );
  return { provider: provider.key, client: new OdsClient(resolved), url: resolved.url, orgId: resolved.orgId, stack, tokenSource: tokenSource(flags, provider, env) };
}

/** Targets of every provider configuration of a stack; `env` may differ per configuration. */
export function targetsFor(
  flags: TargetFlags,
  providers: readonly ProviderConfiguration[],
  stackName: string,
  env: NodeJS.ProcessEnv | ((provider: ProviderConfiguration) => NodeJS.ProcessEnv) = process.env,
): Map<string, Target> {
  if (providers.length > 1 && hasTargetFlags(flags)) {
    throw new TargetError(
      `stack ${stackName} has ${providers.length} provider configurations (${providers.map((p) => p.key).join(", ")}): --url, --token and --org-id apply only to a stack with one; set url/token/org_id in each provider block (variables work) or in the environment`,
    );
  }
  const out = new Map<string, Target>();
  for (const p of providers) out.set(p.key, targetFor(flags, p, typeof env === "function" ? env(p) : env, stackName));
  return out;
}

/**
 * Asks the service which organization a target reaches: the configured org id, else
 * the token's first organization (as the client does for its rate limit).
 */
export async function describeTarget(target: Target): Promise<StateOrganization> {
  if (target.organization) return target.organization;
  let org: Awaited<ReturnType<OdsClient["getOrganization"]>> | undefined;
  try {
    org = target.orgId ? await target.client.getOrganization(target.orgId) : (await target.client.listOrganizations())[0];
  } catch (e) {
    throw targetFailure(target, e);
  }
  if (!org) throw new TargetError(`${whose(target)} (${target.url}): the token reaches no organization`);
  target.organization = { id: org.id, name: org.name };
  target.license = org.license;
  return target.organization;
}

function whose(target: Target): string {
  return `${target.stack ? `stack ${target.stack}, ` : ""}provider ${target.provider}`;
}

/**
 * The first call to a target failed: say what to check. A refused token names where it
 * came from (a variable, a flag, the environment), a refused connection names the URL.
 */
export function targetFailure(target: Target, e: unknown): unknown {
  return accessFailure(whose(target), target.url, target.tokenSource, e);
}

/** The same for any caller: `who` is how the message starts (a stack's provider, `--to`). */
export function accessFailure(who: string, url: string, tokenSource: string, e: unknown): unknown {
  if (!(e instanceof OdsApiError)) return e;
  if (e.status === 401 || e.status === 403) {
    const what = e.status === 401 ? "refused the token" : "refused the token's access";
    return new TargetError(
      `${who}: ${url} ${what} (${e.status} ${e.serviceMessage}); the token came from ${tokenSource}. Check that it is this organization's token and has not expired or been revoked`,
    );
  }
  if (e.kind === "network" || e.kind === "timeout") {
    return new TargetError(`${who}: cannot reach ${url}: ${e.serviceMessage}. Check the URL (the provider configuration's url, ODS_URL or the flag) and that the service is up`);
  }
  return e;
}

/** One line naming where a provider configuration writes: URL and organization, never the token. */
export function targetLine(stack: string, target: Target): string {
  const org = target.organization;
  const name = org ? `organization ${org.name ? `"${org.name}" ` : ""}(id ${org.id})` : target.orgId ? `organization id ${target.orgId}` : "organization unknown";
  return `Target of stack ${stack}, provider ${target.provider}: ${target.url}, ${name}`;
}
