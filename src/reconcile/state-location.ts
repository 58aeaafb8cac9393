// Where a stack's state lives: `--state FILE` (a local file), else the backend the stack
// declares, with the previous ods format's `.ods/state/<stack>.json` read once when found.
import * as path from "node:path";
import { backendForStack } from "./backends";
import { StateStore } from "./state";

/** The project root: where cdktf.json lives, beside the output directory. */
export function projectRoot(outDir: string): string {
  return path.dirname(path.resolve(outDir));
}

/** Where the previous ods format kept a stack's state: `.ods/state/<stack>.json`. */
export function legacyStateFile(outDir: string, stackName: string): string {
  return path.join(projectRoot(outDir), ".ods", "state", `${stackName}.json`);
}

/** The state of a stack: `--state FILE` (a local file), else the stack's backend. */
export function stateStoreFor(stackFile: string, stackName: string, outDir: string, stateFile: string | undefined, log: (line: string) => void): StateStore {
  const { backend } = backendForStack(stackFile, stackName, projectRoot(outDir), stateFile);
  return new StateStore(backend, log, stateFile ? undefined : legacyStateFile(outDir, stackName));
}
