import { Command, InvalidArgumentError } from "commander";
import { startEmulator } from "../emulator";

function parseNonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`expected a whole number >= 0, got "${value}"`);
  return n;
}

/** `ods emulator`: the local, persistent implementation of the service. */
export function registerEmulatorCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command("emulator")
    .description("Serve the Observability Data Service interface on 127.0.0.1 (persistent, for local work and tests).")
    .option("--port <n>", "port to listen on (0 picks a free one)", parseNonNegativeInt, 0)
    .option("--data-dir <dir>", "directory that holds the emulator's data", ".ods/emulator")
    .option("--rate-limit <n>", "requests per second before 429 (default: the license's apiRateLimitPerSecond)", parseNonNegativeInt)
    .option("--faults <spec>", "inject faults, e.g. latency=20ms,error5xx=0.1,burst429=5/50,dropAfterWrite=0.1,seed=7")
    .action(async (opts: { port: number; dataDir: string; rateLimit?: number; faults?: string }) => {
      const emulator = await startEmulator({
        port: opts.port,
        dataDir: opts.dataDir,
        rateLimitPerSecond: opts.rateLimit,
        faults: opts.faults,
      });
      process.stdout.write(`ODS_URL=${emulator.url}\nODS_TOKEN=${emulator.adminToken}\n`);
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          emulator.close().then(resolve, (err: unknown) => {
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
