// --var and --var-file, shared by every command that reads a stack's variables (plan,
// apply, drift, destroy, import, compare): one parser, one precedence, one set of forms
// (`NAME=VALUE`, `STACK:NAME=VALUE`, `FILE`, `STACK=FILE`).
import type { Command } from "commander";
import type { VariableInputs } from "../reconcile/variables";
import { readVariableInputs, type VarInput } from "../reconcile/variable-inputs";

export { inputsOfStack, type VarInput } from "../reconcile/variable-inputs";

export interface VariableOpts {
  var?: VarInput[];
  varFile?: VarInput[];
}

/** Adds --var and --var-file to a command; both collect into one ordered list. */
export function withVariableOptions(cmd: Command): Command {
  const ordered: VarInput[] = [];
  return cmd
    .option("--var <[STACK:]NAME=VALUE>", "set a variable, for every stack or with STACK: for that stack only (repeatable; after TF_VAR_NAME in precedence)", (v: string) => {
      ordered.push({ kind: "var", text: v });
      return ordered;
    })
    .option("--var-file <[STACK=]FILE>", "read variables from a .tfvars or .tfvars.json file, for every stack or with STACK= for that stack only (repeatable)", (v: string) => {
      ordered.push({ kind: "file", text: v });
      return ordered;
    });
}

/** Every --var and --var-file in the order given; per-stack ones carry their stack's name. */
export async function variableInputs(o: VariableOpts, knownStacks: readonly string[]): Promise<VariableInputs> {
  return readVariableInputs(o.var ?? o.varFile ?? [], knownStacks);
}
