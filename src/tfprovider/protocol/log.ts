// Provider logs go to stderr, never stdout (stdout carries the handshake line and
// nothing else). go-plugin reads each stderr line and files it at the level named by a
// "[LEVEL]" prefix, so `TF_LOG=debug terraform ...` shows them with Terraform's own.
// Log RPC names and timings only: values may hold secrets.

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error";
const ORDER: readonly LogLevel[] = ["trace", "debug", "info", "warn", "error"];

export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Whether messages of this level are written: a caller skips building one that would not be. */
  isEnabled?(level: LogLevel): boolean;
}

/** The threshold from TF_LOG_PROVIDER, else TF_LOG; warnings and errors when unset. */
export function logLevelFromEnv(env: Readonly<Record<string, string | undefined>>): LogLevel {
  const wanted = (env.TF_LOG_PROVIDER || env.TF_LOG || "").toLowerCase();
  if (wanted === "json") return "trace";
  return (ORDER as readonly string[]).includes(wanted) ? (wanted as LogLevel) : "warn";
}

export function createLogger(level: LogLevel, write: (line: string) => void = (l) => void process.stderr.write(l)): Logger {
  const min = ORDER.indexOf(level);
  const at = (l: LogLevel) => (message: string) => {
    if (ORDER.indexOf(l) >= min) write(`[${l.toUpperCase()}] provider.ods: ${message.replace(/\n/g, "\n    ")}\n`);
  };
  return { trace: at("trace"), debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error"), isEnabled: (l) => ORDER.indexOf(l) >= min };
}
