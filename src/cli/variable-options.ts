// --var and --var-file, shared by every command that reads a stack's variables (plan,
// apply, drift, destroy, import, compare): one parser, one precedence, one set of forms
// (`NAME=VALUE`, `STACK:NAME=VALUE`, `FILE`, `STACK=FILE`).
import * as fs from "node:fs";
import type { Command } from "commander";
import { VariableError, parseVarFileFlag, parseVarFlag, readVarFile, type VariableAssignment, type VariableInputs } from "../reconcile/variables";

/** --var and --var-file, kept in the order given: a later one wins, as in Terraform. */
export type VarInput = { kind: "var" | "file"; text: string };

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
  const assignments: VariableAssignment[] = [];
  for (const input of o.var ?? o.varFile ?? []) {
    if (input.kind === "var") {
      const a = parseVarFlag(input.text);
      if (a.stack !== undefined && !knownStacks.includes(a.stack)) {
        throw new VariableError([`--var ${a.stack}:${a.name}=...: no stack "${a.stack}"; stacks: ${knownStacks.join(", ") || "none"}`]);
      }
      assignments.push(a);
    } else {
      const { file, stack } = parseVarFileFlag(input.text, (f) => fs.existsSync(f), knownStacks);
      assignments.push(...(await readVarFile(file, stack)));
    }
  }
  return { env: process.env, assignments };
}

/** The inputs one stack sees: the shared assignments and its own, still in the order given. */
export function inputsOfStack(all: VariableInputs, stack: string): VariableInputs {
  return { env: all.env, assignments: all.assignments.filter((a) => a.stack === undefined || a.stack === stack) };
}
