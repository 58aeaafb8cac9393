// What one `ods demo` run leaves for the next, beside the emulator's data: the alert
// receiver's port (the example's notifier URL names it, so a new port would be a change
// to apply) and where the emulator's manual clock stopped (monitor runs already made lie
// up to there; starting earlier, the next run's events would fall before them).
import * as fs from "node:fs";
import * as path from "node:path";

export interface DemoState {
  alertPort?: number;
  /** RFC 3339. */
  clock?: string;
}

export function demoStateFile(dataDir: string): string {
  return path.join(path.dirname(path.resolve(dataDir)), "demo.json");
}

/** The saved state; anything unreadable counts as none (the demo then starts afresh). */
export function readDemoState(file: string): DemoState {
  try {
    const raw = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    const port = raw.alertPort;
    const clock = raw.clock;
    return {
      alertPort: typeof port === "number" && Number.isInteger(port) && port > 0 && port < 65_536 ? port : undefined,
      clock: typeof clock === "string" && !Number.isNaN(Date.parse(clock)) ? clock : undefined,
    };
  } catch {
    return {};
  }
}

export function writeDemoState(file: string, state: DemoState): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`);
}

/** Where the manual clock starts: now, or later where the last run left it. */
export function clockStart(state: DemoState, nowMs = Date.now()): string {
  const saved = state.clock !== undefined ? Date.parse(state.clock) : 0;
  return new Date(Math.max(nowMs, saved)).toISOString();
}
