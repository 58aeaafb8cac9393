// Which service the commands talk to: --url/--token, else ODS_URL/ODS_TOKEN, else the
// stack's provider block. The token is never printed.
import { OdsClient, resolveClientConfig } from "../api";
import type { Values } from "../resources";
import { durationMillis } from "../resources/checks";

export interface TargetFlags {
  url?: string;
  token?: string;
  orgId?: string;
}

export function clientFor(flags: TargetFlags, providerConfig: Values = {}, env: NodeJS.ProcessEnv = process.env): OdsClient {
  const fromBlock = (key: string): string | undefined => {
    const v = providerConfig[key];
    return typeof v === "string" && !v.includes("${") ? v : undefined;
  };
  const rate = providerConfig.rate_limit_per_second;
  const timeout = fromBlock("timeout");
  const config = resolveClientConfig(
    {
      url: flags.url ?? env.ODS_URL ?? fromBlock("url"),
      token: flags.token ?? env.ODS_TOKEN ?? fromBlock("token"),
      orgId: flags.orgId ?? env.ODS_ORG_ID ?? fromBlock("org_id"),
      rateLimitPerSecond: typeof rate === "number" ? rate : undefined,
      timeoutMs: timeout ? durationMillis(timeout) : undefined,
    },
    env,
  );
  return new OdsClient(config);
}
