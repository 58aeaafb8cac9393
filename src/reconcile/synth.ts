// `ods synth`: runs the CDKTF app the way `cdktf synth` does (the `app` command of
// cdktf.json, with CDKTF_OUTDIR set), without needing the cdktf CLI.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export interface SynthOptions {
  app?: string;
  out: string;
  cwd?: string;
  /** Where the app's own output goes; synthesis output is not ours to hide. */
  stdio?: "inherit" | "pipe";
  /** Ends the app (its whole process group) when aborted: nothing it started outlives the caller. */
  signal?: AbortSignal;
  /**
   * The environment the app gets (CDKTF_OUTDIR and CHECKPOINT_DISABLE are added): by
   * default this process's own, as `cdktf synth` does; `ods watch` gives a small one.
   */
  env?: NodeJS.ProcessEnv;
  /** Where the app's stderr (with stdio "inherit") and the synthesis's warnings go: stderr unless given. */
  warn?: (text: string) => void;
}

export function appCommand(cwd: string, explicit?: string): string {
  if (explicit) return explicit;
  const file = path.join(cwd, "cdktf.json");
  if (!fs.existsSync(file)) throw new Error(`no cdktf.json in ${cwd}: pass --app "COMMAND"`);
  const config = JSON.parse(fs.readFileSync(file, "utf8")) as { app?: string };
  if (!config.app) throw new Error(`${file} has no "app" command`);
  return config.app;
}

export async function synth(opts: SynthOptions): Promise<string> {
  const warn = opts.warn ?? ((text: string): void => void process.stderr.write(text));
  const cwd = opts.cwd ?? process.cwd();
  const command = appCommand(cwd, opts.app);
  const out = path.resolve(cwd, opts.out);
  fs.mkdirSync(out, { recursive: true });
  const stderr: Buffer[] = [];
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(command, {
      cwd,
      shell: true,
      stdio: ["ignore", opts.stdio === "pipe" ? "pipe" : "inherit", "pipe"],
      env: { ...(opts.env ?? process.env), CDKTF_OUTDIR: out, CHECKPOINT_DISABLE: "1" },
      // Its own process group, so that the shell and the app it runs end together.
      detached: opts.signal !== undefined,
    });
    const stop = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    if (opts.signal?.aborted) stop();
    opts.signal?.addEventListener("abort", stop, { once: true });
    child.on("close", () => opts.signal?.removeEventListener("abort", stop));
    // Piped output is not shown; drained so that a talkative app never blocks on a full pipe.
    child.stdout?.resume();
    child.stderr?.on("data", (d: Buffer) => {
      stderr.push(d);
      if (opts.stdio !== "pipe") warn(d.toString("utf8"));
    });
    child.on("error", reject);
    child.on("close", (c) => resolve(c ?? 1));
  });
  if (code !== 0) {
    const text = Buffer.concat(stderr).toString("utf8").trim();
    const validation = text.split("\n").filter((l) => l.includes("[") && l.includes("]")).join("\n");
    throw new Error(`synthesis failed (${command} exited ${code})${validation ? `:\n${validation}` : ""}`);
  }
  for (const w of synthWarnings(out)) warn(`Warning: ${w}\n`);
  return out;
}

/**
 * The warning annotations the app left in the manifest (a credential written as a
 * literal), as `[construct path] message`: what `cdktf synth` prints, printed by ods too.
 */
export function synthWarnings(outDir: string): string[] {
  const file = path.join(outDir, "manifest.json");
  let manifest: { stacks?: Record<string, { annotations?: { constructPath?: string; level?: string; message?: unknown }[] }> };
  try {
    manifest = JSON.parse(fs.readFileSync(file, "utf8")) as typeof manifest;
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const stack of Object.values(manifest.stacks ?? {})) {
    for (const a of stack.annotations ?? []) if (a.level === "@cdktf/warn") out.push(`[${a.constructPath ?? "?"}] ${String(a.message)}`);
  }
  return out;
}
