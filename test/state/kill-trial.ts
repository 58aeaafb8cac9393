// A kill trial for the state journal: a child Node process saves one entry at a time and
// prints `saved I` once each save resolved; it is killed with SIGKILL once it printed
// KILL_AT. Answers the last index it acknowledged.
import { spawn } from "node:child_process";

export function killAfterSaved(script: string, args: readonly string[], killAt: number): Promise<number> {
  return new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ["-e", script, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let last = -1;
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /saved (\d+)\n(?![\s\S]*saved)/.exec(out);
      if (m) last = Number(m[1]);
      if (last >= killAt && child.exitCode === null) child.kill("SIGKILL");
      out = out.slice(-64);
    });
    child.on("close", () => resolve(last));
  });
}
