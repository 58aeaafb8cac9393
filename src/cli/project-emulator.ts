// A project made by `ods init` plans against an embedded emulator until it is pointed at
// a service: its cdktf.json says so (`"context": {"ods.emulator": ".ods/emulator"}`),
// and only while no service URL is given (ODS_URL or --url). The emulator keeps its data
// in that directory, so that plan, apply and the next plan see the same organization.
// The target line every command prints first names it.
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../emulator";

/** The cdktf.json context key naming the emulator's data directory. */
export const EMULATOR_CONTEXT_KEY = "ods.emulator";

export interface ProjectEmulator {
  /** The environment the targets read: ODS_URL and ODS_TOKEN of the emulator. */
  env: NodeJS.ProcessEnv;
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

/** Starts the project's emulator when cdktf.json asks for one and no service URL is given. */
export async function projectEmulator(projectRoot: string, urlFlag: string | undefined, log: (line: string) => void): Promise<ProjectEmulator | undefined> {
  const dataDir = emulatorDataDir(projectRoot);
  if (!dataDir || urlFlag !== undefined || process.env.ODS_URL) return undefined;
  const emulator = await startEmulator({ port: 0, dataDir });
  log(
    `No ODS_URL: using this project's embedded emulator (data in ${path.relative(process.cwd(), dataDir) || "."}), as cdktf.json's context "${EMULATOR_CONTEXT_KEY}" asks. ` +
      `Set ODS_URL and ODS_TOKEN to use a service.`,
  );
  return {
    env: { ...process.env, ODS_URL: emulator.url, ODS_TOKEN: emulator.adminToken },
    close: () => emulator.close(),
  };
}
