// The two engines behind one interface, for the monitor tests: a stack (valid both as
// cdk.tf.json for `ods` and main.tf.json for terraform) is planned and applied by the
// `ods` CLI or by the real terraform binary with the installed provider.
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from "../../src/emulator";
import { runOds, stackFlags, tempDir } from "../helpers/ods-cli";
import { TerraformWorkspace } from "../terraform/harness";

export type Stack = Record<string, unknown>;

export interface EngineRun {
  /** 0: done (or, for plan, nothing to change); 2: plan with changes; other: failed. */
  code: number | null;
  out: string;
}

export interface Engine {
  name: "ods" | "terraform";
  plan(stack: Stack): Promise<EngineRun>;
  apply(stack: Stack): Promise<EngineRun>;
}

/** The same stack wrapper both engines read. */
export function stackOf(resource: Record<string, unknown>): Stack {
  return {
    terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } } },
    provider: { ods: [{}] },
    resource,
  };
}

/** Emulators started through `freshEmulator`, for the suite's afterAll to close. */
export const startedEmulators: EmulatorHandle[] = [];

export async function freshEmulator(opts: Partial<EmulatorOptions> = {}): Promise<EmulatorHandle> {
  const e = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), rateLimitPerSecond: 100_000, ...opts });
  startedEmulators.push(e);
  return e;
}

export function odsEngine(e: EmulatorHandle): Engine {
  const dir = tempDir();
  const file = path.join(dir, "cdktf.out", "stacks", "main", "cdk.tf.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const env = { ODS_URL: e.url, ODS_TOKEN: e.adminToken };
  const run = async (args: string[], stack: Stack): Promise<EngineRun> => {
    fs.writeFileSync(file, JSON.stringify(stack));
    const r = await runOds([...args, ...stackFlags(dir)], { env });
    return { code: r.code, out: r.stdout + r.stderr };
  };
  return {
    name: "ods",
    plan: (stack) => run(["plan", "--detailed-exitcode"], stack),
    apply: (stack) => run(["apply", "--auto-approve"], stack),
  };
}

/** A terraform workspace on `e`, initialized (init needs a config; the first one given is used). */
export function terraformEngine(e: EmulatorHandle, cliConfig: string): Engine {
  const tf = new TerraformWorkspace(cliConfig, { url: e.url, token: e.adminToken });
  let initialized = false;
  const run = async (args: string[], stack: Stack): Promise<EngineRun> => {
    tf.writeConfig(stack);
    if (!initialized) {
      const init = await tf.run("init");
      if (init.status !== 0) return { code: init.status, out: init.out };
      initialized = true;
    }
    const r = await tf.run(...args);
    return { code: r.status, out: r.out };
  };
  return {
    name: "terraform",
    plan: (stack) => run(["plan", "-detailed-exitcode"], stack),
    apply: (stack) => run(["apply", "-auto-approve"], stack),
  };
}
