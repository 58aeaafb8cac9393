// Fault injection, so that clients can be tested against the failures a real service
// shows: slow answers, 503s, bursts of 429s, and connections that drop after a write
// was applied (the case where a blind retry creates a duplicate).
//
// Spec syntax (comma-separated, each key at most once):
//   latency=20ms | latency=1s | latency=10-50ms   delay before every answer (range: uniform)
//   error5xx=0.1          that share of requests answers 503 before doing anything
//   burst429=5/50         the last 5 of every 50 requests answer 429 (requests 46..50)
//   dropAfterWrite=0.1    that share of successful writes is applied and persisted,
//                         then the connection is destroyed without an answer
//   seed=7                seeds the random draws, for a reproducible run

export interface FaultSpec {
  /** Delay before each answer, in ms; with latencyMaxMs, the low end of a range. */
  latencyMs?: number;
  latencyMaxMs?: number;
  /** Share (0..1) of requests answered 503. */
  error5xx?: number;
  burst429?: { count: number; every: number };
  /** Share (0..1) of successful writes whose answer is dropped. */
  dropAfterWrite?: number;
  seed?: number;
}

export class FaultSpecError extends Error {
  constructor(message: string) {
    super(`invalid fault spec: ${message}`);
    this.name = "FaultSpecError";
  }
}

const KEYS = ["latency", "error5xx", "burst429", "dropAfterWrite", "seed"];

function parseShare(key: string, text: string): number {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new FaultSpecError(`${key} must be a share from 0 to 1 (e.g. ${key}=0.1), got "${text}"`);
  }
  return value;
}

function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * (m[2] === "s" ? 1000 : 1);
}

function parseLatency(text: string, spec: FaultSpec): void {
  const range = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)(ms|s)$/.exec(text);
  if (range) {
    const unit = range[3] === "s" ? 1000 : 1;
    spec.latencyMs = Number(range[1]) * unit;
    spec.latencyMaxMs = Number(range[2]) * unit;
  } else {
    const ms = parseDuration(text);
    if (ms === undefined) throw new FaultSpecError(`latency must look like 20ms, 1s or 10-50ms, got "${text}"`);
    spec.latencyMs = ms;
  }
}

/** Parses a spec string; throws FaultSpecError naming the bad part. */
export function parseFaultSpec(text: string): FaultSpec {
  const spec: FaultSpec = {};
  const seen = new Set<string>();
  for (const part of text.split(",").map((p) => p.trim())) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    if (eq <= 0) throw new FaultSpecError(`expected key=value, got "${part}" (keys: ${KEYS.join(", ")})`);
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!KEYS.includes(key)) throw new FaultSpecError(`unknown fault "${key}" (keys: ${KEYS.join(", ")})`);
    if (seen.has(key)) throw new FaultSpecError(`"${key}" is given twice`);
    seen.add(key);
    switch (key) {
      case "latency":
        parseLatency(value, spec);
        break;
      case "error5xx":
        spec.error5xx = parseShare(key, value);
        break;
      case "dropAfterWrite":
        spec.dropAfterWrite = parseShare(key, value);
        break;
      case "burst429": {
        const m = /^(\d+)\/(\d+)$/.exec(value);
        if (!m) throw new FaultSpecError(`burst429 must look like 5/50 (5 consecutive 429s every 50 requests), got "${value}"`);
        spec.burst429 = { count: Number(m[1]), every: Number(m[2]) };
        break;
      }
      case "seed":
        if (!/^\d+$/.test(value)) throw new FaultSpecError(`seed must be a whole number, got "${value}"`);
        spec.seed = Number(value);
        break;
    }
  }
  return validateFaultSpec(spec);
}

/** Checks a spec given as an object (the same rules as the string form). */
export function validateFaultSpec(spec: FaultSpec): FaultSpec {
  const share = (key: string, v: number | undefined): void => {
    if (v !== undefined && !(Number.isFinite(v) && v >= 0 && v <= 1)) throw new FaultSpecError(`${key} must be a share from 0 to 1, got ${v}`);
  };
  share("error5xx", spec.error5xx);
  share("dropAfterWrite", spec.dropAfterWrite);
  const { latencyMs, latencyMaxMs, burst429, seed } = spec;
  if (latencyMs !== undefined && !(Number.isFinite(latencyMs) && latencyMs >= 0 && latencyMs <= 60_000)) {
    throw new FaultSpecError(`latency must be from 0 to 60s, got ${latencyMs}ms`);
  }
  if (latencyMaxMs !== undefined && !(latencyMs !== undefined && latencyMaxMs >= latencyMs && latencyMaxMs <= 60_000)) {
    throw new FaultSpecError(`a latency range must run from low to high, at most 60s`);
  }
  if (burst429 && !(Number.isInteger(burst429.count) && Number.isInteger(burst429.every) && burst429.count >= 1 && burst429.count <= burst429.every)) {
    throw new FaultSpecError(`burst429 needs 1 <= count <= every, got ${burst429.count}/${burst429.every}`);
  }
  if (seed !== undefined && !(Number.isSafeInteger(seed) && seed >= 0)) throw new FaultSpecError(`seed must be a whole number, got ${seed}`);
  return spec;
}

/** mulberry32: tiny, fast, and good enough to make fault draws reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type RequestFault = "error5xx" | "burst429";

/** The faults in force, with the request counter and random draws they need. */
export class FaultInjector {
  private readonly random: () => number;
  private requestCount = 0;

  constructor(readonly spec: FaultSpec) {
    this.random = prng(spec.seed ?? Math.floor(Math.random() * 2 ** 32));
  }

  /** The delay before this request is handled (ms). */
  latency(): number {
    const { latencyMs, latencyMaxMs } = this.spec;
    if (latencyMs === undefined) return 0;
    if (latencyMaxMs === undefined) return latencyMs;
    return latencyMs + this.random() * (latencyMaxMs - latencyMs);
  }

  /** The fault that answers this request instead of the service, if any. */
  onRequest(): RequestFault | undefined {
    const position = this.requestCount++;
    const burst = this.spec.burst429;
    if (burst && position % burst.every >= burst.every - burst.count) return "burst429";
    if (this.spec.error5xx !== undefined && this.random() < this.spec.error5xx) return "error5xx";
    return undefined;
  }

  /** Whether to drop the answer to a write that succeeded. */
  dropAnswer(): boolean {
    return this.spec.dropAfterWrite !== undefined && this.random() < this.spec.dropAfterWrite;
  }
}
