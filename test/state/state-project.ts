// A project of one stack managing one role, with the backend it declares (or cdktf's
// default local one), and `ods` run in it against an emulator.
import * as fs from "node:fs";
import * as path from "node:path";
import type { EmulatorHandle } from "../../src/emulator";
import { runOds, tempDir, writeStack, type RunResult } from "../helpers/ods-cli";

export interface StateProject {
  dir: string;
  ods: (args: string[]) => Promise<RunResult>;
}

export function stateProject(emu: EmulatorHandle, prefix: string, backend?: Record<string, unknown>): StateProject {
  const dir = tempDir();
  const file = writeStack(dir, { resource: { ods_role: { r: { name: `${prefix}-r`, description: "d" } } } });
  if (backend) {
    const stack = JSON.parse(fs.readFileSync(file, "utf8"));
    fs.writeFileSync(file, JSON.stringify({ ...stack, terraform: { backend } }));
  }
  const ods = (args: string[]): Promise<RunResult> =>
    runOds([...args, "--out-dir", path.join(dir, "cdktf.out"), "--no-synth"], { cwd: dir, env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken } });
  return { dir, ods };
}
