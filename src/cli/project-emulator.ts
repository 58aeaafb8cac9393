// A project made by `ods init` plans against an embedded emulator until it is pointed at
// a service: its cdktf.json says so (`"context": {"ods.emulator": ".ods/emulator"}`).
// The emulator is a target like any other, of the provider configurations that name no
// service: no url of their own, no --url, no ODS_URL. It starts when the first such
// configuration is met, and never for a command whose stacks all name their service, so
// that two commands for stacks with their own targets never contend for its data
// directory. It keeps its data there, so that plan, apply and the next plan see the same
// organization. The target line every command prints first names it.
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../emulator";
import type { ProviderConfiguration } from "../reconcile/stack";
import { serviceUrlOf, type TargetFlags } from "../reconcile/target";

/** The cdktf.json context key naming the emulator's data directory. */
export const EMULATOR_CONTEXT_KEY = "ods.emulator";

export interface ProjectEmulator {
  /**
   * The environment a provider configuration's target reads: the emulator's ODS_URL and
   * ODS_TOKEN when it names no service (the emulator started then, once), else the
   * process's own.
   */
  envFor: (provider: ProviderConfiguration) => Promise<NodeJS.ProcessEnv>;
  /** Whether a configuration needed it (and so it was started). */
  started: () => boolean;
  close: () => Promise<void>;
}

/** The data directory the project's cdktf.json names, if any. */
export function emulatorDataDir(projectRoot: string): string | undefined {
  const file = path.join(projectRoot, "cdktf.json");
  if (!fs.existsSync(file)) return undefined;
  try {
    const context = (JSON.parse(fs.readFileSync(file, "utf8")) as { context?: Record<string, unknown> }).context;
    const dir = context?.[EMULATOR_CONTEXT_KEY];
    return typeof dir === "string" && dir !== "" ? path.resolve(projectRoot, dir) : undefined;
  } catch {
    return undefined; // synth reports a broken cdktf.json
  }
}

/**
 * The project's emulator when cdktf.json asks for one: started only by `envFor` of a
 * provider configuration that names no service.
 */
export function projectEmulator(projectRoot: string, flags: TargetFlags, log: (line: string) => void): ProjectEmulator | undefined {
  const dataDir = emulatorDataDir(projectRoot);
  if (!dataDir) return undefined;
  let starting: Promise<EmulatorHandle> | undefined;
  const start = (): Promise<EmulatorHandle> => {
    starting ??= startEmulator({ port: 0, dataDir }).then((emulator) => {
      log(
        `No ODS_URL: using this project's embedded emulator (data in ${path.relative(process.cwd(), dataDir) || "."}) for the provider configurations that name no url, as cdktf.json's context "${EMULATOR_CONTEXT_KEY}" asks. ` +
          `Set ODS_URL and ODS_TOKEN (or the provider block's url and token) to use a service.`,
      );
      return emulator;
    });
    return starting;
  };
  return {
    envFor: async (provider) => {
      // A url written as an expression names a service too: the target refuses it, the emulator stays out.
      const written = typeof provider.config.url === "string" && provider.config.url !== "";
      if (written || serviceUrlOf(flags, provider, process.env) !== undefined) return process.env;
      const emulator = await start();
      return { ...process.env, ODS_URL: emulator.url, ODS_TOKEN: emulator.adminToken };
    },
    started: () => starting !== undefined,
    close: async () => {
      // A start that failed has nothing to close.
      const emulator = await starting?.catch(() => undefined);
      await emulator?.close();
    },
  };
}
