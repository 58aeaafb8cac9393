// `ods compare --from A --to B`: does production match staging? Each side is an
// organization (a URL, its token from an environment variable) or a synthesized stack.
import type { Command } from "commander";
import { compareTargets, renderComparison, type Target } from "../compare/compare";
import { parseIgnoreRule } from "../compare/ignore";
import { organizationTarget, stackNameOf, stackTarget } from "../compare/targets";
import { redactText, secretForms } from "../reconcile/redact";
import type { VariableInputs } from "../reconcile/variables";
import { inputsOfStack, variableInputs, withVariableOptions, type VariableOpts } from "./variable-options";
import { parseNameMapping } from "../export/name-mapping";
import { resolveKinds } from "../export/org-snapshot";
import { clientFromEnv, collect, EMULATOR_TOKEN_NAME, selfTokens } from "./export-command";
import { accessFailure } from "../reconcile/target";

export const EXIT_DIFFERENT = 2;

interface CompareOpts extends VariableOpts {
  from: string;
  to: string;
  fromTokenEnv: string;
  toTokenEnv: string;
  kinds?: string;
  selfToken: string[];
  map: string[];
  ignore: string[];
}

const isUrl = (spec: string): boolean => /^https?:\/\//.test(spec);

async function openTarget(side: "--from" | "--to", spec: string, tokenEnv: string, o: CompareOpts, variables: VariableInputs): Promise<Target> {
  const kinds = o.kinds ? resolveKinds(o.kinds.split(",")) : undefined;
  // A stack's side is filtered like an organization's, and reads its variables as plan does.
  if (!isUrl(spec)) return stackTarget(spec, { kinds, variables: inputsOfStack(variables, stackNameOf(spec)) });
  const client = clientFromEnv(spec, tokenEnv);
  try {
    let org;
    try {
      org = await client.listOrganizations();
    } catch (e) {
      throw accessFailure(side, spec, `the environment variable ${tokenEnv} (${side}-token-env)`, e);
    }
    const label = `${spec}${org[0] ? ` (organization ${org[0].name ?? org[0].id})` : ""}`;
    return await organizationTarget(client, label, {
      kinds,
      selfTokenNames: selfTokens(o.selfToken),
    });
  } finally {
    await client.close();
  }
}

export function registerCompareCommand(program: Command, setExit: (code: number) => void): void {
  withVariableOptions(program
    .command("compare")
    .description("Compare two targets (organizations by URL, or a synthesized stack and an organization). Exit 0 same, 2 different.")
    .requiredOption("--from <target>", "an organization URL, or a stack (cdktf.out/stacks/NAME)")
    .requiredOption("--to <target>", "an organization URL, or a stack")
    .option("--from-token-env <var>", "environment variable with the --from organization's token", "ODS_TOKEN")
    .option("--to-token-env <var>", "environment variable with the --to organization's token", "ODS_TOKEN")
    .option("--kinds <list>", "comma-separated kinds to compare (default: every kind)")
    .option("--self-token <name>", `name of a calling token, left out (repeatable; default: ${EMULATOR_TOKEN_NAME}, the emulator's)`, collect, [])
    .option("--map <FROM=TO>", "rename --from names to --to names before matching: a prefix 'stg-=prod-' or a suffix '-stg=-prod' (repeatable; the first that applies wins)", collect, [])
    .option("--ignore <rule>", "leave out what differs on purpose, KIND, KIND.ATTRIBUTE or ATTRIBUTE: a kind (ods_notifier), one kind's attribute (ods_notifier.properties), or an attribute of every kind (rotation_grace_period) (repeatable)", collect, []))
    .action(async (o: CompareOpts) => {
      // Bad mappings and rules fail before any organization is read.
      const mappings = o.map.map(parseNameMapping);
      const ignore = o.ignore.map(parseIgnoreRule);
      if (o.kinds) resolveKinds(o.kinds.split(","));
      const stacks = [o.from, o.to].filter((spec) => !isUrl(spec)).map(stackNameOf);
      const variables = await variableInputs(o, stacks);
      const from = await openTarget("--from", o.from, o.fromTokenEnv, o, variables);
      const to = await openTarget("--to", o.to, o.toTokenEnv, o, variables);
      const result = compareTargets(from, to, { mappings, ignore });
      // Sensitive values are never rendered; a value that took an unexpected path is still caught here.
      const secrets = [...(from.sensitiveValues ?? []), ...(to.sensitiveValues ?? [])].flatMap(secretForms);
      process.stdout.write(`${redactText(renderComparison(from, to, result), secrets)}\n`);
      if (result.differences.length > 0) setExit(EXIT_DIFFERENT);
    });
}
