// The variables a run reads, from --var and --var-file (or the automation API's
// `variables` and `varFiles`): one parser, one precedence (a later one wins, as in
// Terraform), one set of forms (`NAME=VALUE`, `STACK:NAME=VALUE`, `FILE`, `STACK=FILE`).
import * as fs from "node:fs";
import { VariableError, parseVarFileFlag, parseVarFlag, readVarFile, type VariableAssignment, type VariableInputs } from "./variables";

/** --var and --var-file, kept in the order given: a later one wins, as in Terraform. */
export type VarInput = { kind: "var" | "file"; text: string };

/** Every --var and --var-file in the order given; per-stack ones carry their stack's name. */
export async function readVariableInputs(inputs: readonly VarInput[], knownStacks: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<VariableInputs> {
  const assignments: VariableAssignment[] = [];
  for (const input of inputs) {
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
  return { env, assignments };
}

/** The inputs one stack sees: the shared assignments and its own, still in the order given. */
export function inputsOfStack(all: VariableInputs, stack: string): VariableInputs {
  return { env: all.env, assignments: all.assignments.filter((a) => a.stack === undefined || a.stack === stack) };
}
