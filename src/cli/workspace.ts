// One stack with its state file and the client of its default provider configuration,
// for commands that work on a single stack and target (plan/apply/drift/destroy use
// stack-runner, which handles several stacks and provider aliases).
import * as path from "node:path";
import type { OdsClient } from "../api";
import { findStackFile, loadStack, type LoadedStack } from "../reconcile/stack";
import { synth } from "./synth";
import { targetFor, type TargetFlags } from "./target";

export interface WorkspaceFlags extends TargetFlags {
  stack?: string;
  outDir: string;
  state?: string;
  app?: string;
  synth: boolean;
}

export interface Workspace {
  stack: LoadedStack;
  stackFile: string;
  stateFile: string;
  client: OdsClient;
  orgId?: string;
}

/** Default state location: `.ods/state/<stack>.json` in the project, beside cdktf.out. */
export function defaultStateFile(outDir: string, stackName: string): string {
  return path.join(path.dirname(path.resolve(outDir)), ".ods", "state", `${stackName}.json`);
}

export async function openWorkspace(flags: WorkspaceFlags, log: (line: string) => void): Promise<Workspace> {
  if (flags.synth) {
    log(`Synthesizing ${flags.app ?? "the app of cdktf.json"} into ${flags.outDir} ...`);
    await synth({ app: flags.app, out: flags.outDir });
  }
  const stackFile = findStackFile(flags.outDir, flags.stack);
  const stack = loadStack(stackFile);
  // The default provider configuration: the block first, the environment for what it leaves unset.
  const target = targetFor(flags, { key: "ods", config: stack.providerConfig, implicit: false });
  return {
    stack,
    stackFile,
    stateFile: path.resolve(flags.state ?? defaultStateFile(flags.outDir, stack.name)),
    client: target.client,
    orgId: target.orgId,
  };
}
