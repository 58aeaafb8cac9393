// The options of startEmulator, checked before anything starts: a typo in a test's set-up
// fails naming the option and what it takes, rather than starting an emulator that does
// something else (a real clock where a manual one was meant, a license not applied).
import { FaultSpecError, LicenseSettingsError, parseFaultSpec, parseLicenseSettings, type FaultSpec, type LicenseSettings } from "../emulator";

export type { FaultSpec, LicenseSettings };

/** The options of startEmulator; every one may be left out. */
export interface StartEmulatorOptions {
  /**
   * Where the emulator keeps its data. Given, it is kept when the handle stops (and a later
   * start from it finds everything again); omitted, a temporary directory is made and
   * removed by `stop()`.
   */
  dataDir?: string;
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /**
   * "manual" (the default here, unlike `ods emulator`): time stands still until `advance()`
   * moves it, so a test decides when monitors run. "real": monitors run on the wall clock.
   */
  clock?: "real" | "manual";
  /** Where a manual clock starts (RFC 3339 or a Date); default: now. */
  clockStart?: string | Date;
  /** License limits of the organization: `"maxMonitors=10,maxFields=50"` or the same as an object. */
  license?: string | LicenseSettings;
  /** Faults to inject, as `ods emulator --faults` takes them (`"error5xx=0.1,seed=7"`) or as an object. */
  faults?: string | FaultSpec;
}

/** What startEmulator refuses: `option` names the option at fault. */
export class EmulatorOptionError extends Error {
  constructor(
    /** The option at fault, as StartEmulatorOptions spells it ("options" when they are not an object). */
    readonly option: string,
    problem: string,
  ) {
    super(`startEmulator: option "${option}" ${problem}`);
    this.name = "EmulatorOptionError";
  }
}

const KNOWN = ["dataDir", "port", "clock", "clockStart", "license", "faults"] as const;

/** The options as the emulator takes them: checked, with the defaults of this entry point. */
export interface CheckedOptions {
  dataDir?: string;
  port: number;
  clock: "real" | "manual";
  clockStart?: string;
  license?: LicenseSettings;
  faults?: string | FaultSpec;
}

const got = (value: unknown): string => (value instanceof Date ? `Date(${String(value)})` : JSON.stringify(value) ?? String(value));

function checkLicense(license: unknown): LicenseSettings {
  // One reading of the limits, the command line's: an object is written out as its text.
  let text: string;
  if (typeof license === "string") text = license;
  else if (typeof license === "object" && license !== null && !Array.isArray(license)) {
    text = Object.entries(license).map(([k, v]) => `${k}=${typeof v === "number" ? String(v) : got(v)}`).join(",");
  } else throw new EmulatorOptionError("license", `must be "KEY=VALUE,..." or an object of limits, got ${got(license)}`);
  try {
    return parseLicenseSettings(text);
  } catch (err) {
    if (err instanceof LicenseSettingsError) throw new EmulatorOptionError("license", err.message.replace(/^--license: /, ""));
    throw err;
  }
}

function checkFaults(faults: unknown): string | FaultSpec {
  try {
    if (typeof faults === "string") parseFaultSpec(faults);
    else if (typeof faults !== "object" || faults === null || Array.isArray(faults)) {
      throw new EmulatorOptionError("faults", `must be a fault spec such as "error5xx=0.1,seed=7" or an object, got ${got(faults)}`);
    }
  } catch (err) {
    if (err instanceof FaultSpecError) throw new EmulatorOptionError("faults", err.message);
    throw err;
  }
  return faults as string | FaultSpec;
}

function checkClockStart(value: unknown): string {
  const ms = value instanceof Date ? value.getTime() : typeof value === "string" && /^\d{4}-\d\d-\d\dT/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw new EmulatorOptionError("clockStart", `must be an RFC 3339 timestamp such as "2026-01-01T00:00:00Z" or a valid Date, got ${got(value)}`);
  return new Date(ms).toISOString();
}

export function checkOptions(options: unknown): CheckedOptions {
  if (options === undefined) return { port: 0, clock: "manual" };
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new EmulatorOptionError("options", `must be an object, got ${got(options)}`);
  }
  const given = options as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(KNOWN as readonly string[]).includes(key)) throw new EmulatorOptionError(key, `is not an option; the options are ${KNOWN.join(", ")}`);
  }
  const out: CheckedOptions = { port: 0, clock: "manual" };
  if (given.dataDir !== undefined) {
    if (typeof given.dataDir !== "string" || given.dataDir.trim() === "") throw new EmulatorOptionError("dataDir", `must be a directory path, got ${got(given.dataDir)}`);
    out.dataDir = given.dataDir;
  }
  if (given.port !== undefined) {
    const port = given.port;
    if (typeof port !== "number" || !Number.isInteger(port) || port < 0 || port > 65535) throw new EmulatorOptionError("port", `must be a whole number from 0 to 65535 (0 picks a free port), got ${got(port)}`);
    out.port = port;
  }
  if (given.clock !== undefined) {
    if (given.clock !== "real" && given.clock !== "manual") throw new EmulatorOptionError("clock", `must be "real" or "manual", got ${got(given.clock)}`);
    out.clock = given.clock;
  }
  if (given.clockStart !== undefined) {
    if (out.clock !== "manual") throw new EmulatorOptionError("clockStart", `needs clock: "manual" (a real clock starts at the wall clock's time)`);
    out.clockStart = checkClockStart(given.clockStart);
  }
  if (given.license !== undefined) out.license = checkLicense(given.license);
  if (given.faults !== undefined) out.faults = checkFaults(given.faults);
  return out;
}
