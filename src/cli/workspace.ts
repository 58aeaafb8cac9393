// One stack with its state (through the backend the stack declares) and the client of
// its default provider configuration, for commands that work on a single stack and
// target (plan/apply/drift/destroy use stack-runner, which handles several stacks and
// provider aliases).
import type { OdsClient } from "../api";
import { stateStoreFor } from "../reconcile/state-location";
import { findStackFile, loadStack, type LoadedStack } from "../reconcile/stack";
import type { StateStore } from "../reconcile/state";

export { legacyStateFile, projectRoot, stateStoreFor } from "../reconcile/state-location";
import { synth } from "../reconcile/synth";
import { targetFor, type TargetFlags } from "../reconcile/target";

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
  /** The stack's state, through its backend; closed by the command that opened it. */
  store: StateStore;
  client: OdsClient;
  orgId?: string;
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
    store: stateStoreFor(stackFile, stack.name, flags.outDir, flags.state, log),
    client: target.client,
    orgId: target.orgId,
  };
}
