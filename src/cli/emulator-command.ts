import { Command, InvalidArgumentError } from "commander";
import { closeQueryPool, FaultSpecError, LicenseSettingsError, parseDeliverTo, parseFaultSpec, parseLicenseSettings, startEmulator } from "../emulator";

function parseWholeNumber(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min) throw new InvalidArgumentError(`expected a whole number >= ${min}, got "${value}"`);
    return n;
  };
}

/** Checks the spec when the command line is read, so that a typo fails before startup. */
/** An option's value checked by PARSE; its error of type KNOWN becomes commander's usage error. */
function checkedBy(parse: (value: string) => unknown, known: new (...args: never[]) => Error): (value: string) => string {
  return (value) => {
    try {
      parse(value);
    } catch (err) {
      if (err instanceof known) throw new InvalidArgumentError(err.message);
      throw err;
    }
    return value;
  };
}

const checkFaultSpec = checkedBy(parseFaultSpec, FaultSpecError);
const checkLicense = checkedBy(parseLicenseSettings, LicenseSettingsError);

function checkDeliverTo(value: string): string {
  try {
    parseDeliverTo(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
  return value;
}

function parseShare(value: string): number {
  const n = Number(value);
  if (!/^(0?\.\d+|1(\.0*)?)$/.test(value) || !(n > 0 && n <= 1)) throw new InvalidArgumentError(`expected a fraction greater than 0 and at most 1, got "${value}"`);
  return n;
}

function parseClockMode(value: string): "real" | "manual" {
  if (value !== "real" && value !== "manual") throw new InvalidArgumentError(`expected "real" or "manual", got "${value}"`);
  return value;
}

/** `ods emulator`: the local, persistent implementation of the service. */
export function registerEmulatorCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command("emulator")
    .description("Serve the Observability Data Service interface on 127.0.0.1 (persistent, for local work and tests).")
    .option("--port <n>", "port to listen on (0 picks a free one)", parseWholeNumber(0), 0)
    .option("--data-dir <dir>", "directory that holds the emulator's data", ".ods/emulator")
    .option("--rate-limit <n>", "requests per second before 429 (default: the license's apiRateLimitPerSecond, 100)", parseWholeNumber(1))
    .option(
      "--faults <spec>",
      "inject faults: latency=20ms|10-50ms, error5xx=<share>, burst429=<n>/<every>, dropAfterWrite=<share>, seed=<n> (comma-separated)",
      checkFaultSpec,
    )
    .option("--clock <mode>", "real (monitors run on the wall clock) or manual (time moves only on POST /_emulator/clock)", parseClockMode, "real")
    .option("--clock-start <time>", "where a manual clock starts (RFC 3339); default: now")
    .option(
      "--deliver-to <hosts>",
      "hosts webhooks may reach besides loopback: HOST[,HOST...] or any (link-local and cloud metadata addresses never)",
      checkDeliverTo,
    )
    .option("--query-max-millis <ms>", "the longest a query may run, in ms; past it the query is stopped (408)", parseWholeNumber(1), 10_000)
    .option("--query-max-rows <n>", "rows a query may read and make (union, join, mv-expand, make-series), together; past it the result is partial", parseWholeNumber(1), 5_000_000)
    .option("--query-max-memory-mb <mb>", "MiB a query may build while it runs (rows it keeps, lists, sets, groups); past it, 400", parseWholeNumber(1), 256)
    .option("--query-max-answer-mb <mb>", "MiB a query's answer may be; past it, 400", parseWholeNumber(1), 64)
    .option("--query-share <fraction>", "share of the query threads one token (or one monitor's query) may hold at once; at least one thread", parseShare, 0.5)
    .option(
      "--license <limits>",
      "set license limits of the organization (kept in the data directory): KEY=VALUE[,KEY=VALUE...], e.g. maxMonitors=10,maxFields=50",
      checkLicense,
    )
    .action(async (opts: {
      port: number;
      dataDir: string;
      rateLimit?: number;
      faults?: string;
      clock: "real" | "manual";
      clockStart?: string;
      deliverTo?: string;
      queryMaxMillis: number;
      queryMaxRows: number;
      queryMaxMemoryMb: number;
      queryMaxAnswerMb: number;
      queryShare: number;
      license?: string;
    }) => {
      const emulator = await startEmulator({
        port: opts.port,
        dataDir: opts.dataDir,
        rateLimitPerSecond: opts.rateLimit,
        faults: opts.faults,
        clock: opts.clock,
        clockStart: opts.clockStart,
        deliverTo: opts.deliverTo,
        queryMaxMillis: opts.queryMaxMillis,
        queryMaxRows: opts.queryMaxRows,
        queryMaxMemoryMb: opts.queryMaxMemoryMb,
        queryMaxAnswerMb: opts.queryMaxAnswerMb,
        queryShare: opts.queryShare,
        license: opts.license,
      });
      process.stdout.write(`ODS_URL=${emulator.url}\nODS_TOKEN=${emulator.adminToken}\n`);
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          emulator.close().then(closeQueryPool).then(resolve, (err: unknown) => {
            process.stderr.write(`ods emulator: error while stopping: ${String(err)}\n`);
            setExitCode(1);
            resolve();
          });
        };
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
    });
}
