// startEmulator from code: the emulator in the caller's process, with what a test of its
// own monitors needs around it: the admin token, ingest over HTTP, a manual clock to move,
// and a webhook receiver whose requests read back as the delivered alerts. Everything goes
// through the emulator's public entry and its HTTP interface, as any client's would: the
// emulator shares no code with the rest (so their bugs cannot cancel out).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { inspect } from "node:util";
import { OdsApiError, OdsClient, type Capabilities, type IngestEvent, type IngestResult } from "../api";
import { closeQueryPool, startEmulator as startEmulatorService, FaultSpecError, type EmulatorHandle } from "../emulator";
import { checkOptions, EmulatorOptionError, type StartEmulatorOptions } from "./emulator-options";
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from "./webhook-receiver";
import { hideSecretHeaders, secretHeaderPolicy } from "./webhook-secrets";

export { EmulatorOptionError, type StartEmulatorOptions } from "./emulator-options";
export type { FaultSpec, LicenseSettings } from "./emulator-options";

/** One webhook request a monitor's notifier made, as the handle's receiver saw it. */
export interface WebhookDelivery {
  /** The name given to `webhookUrl(name)` ("default" without one). */
  name: string;
  method: string;
  /** The path the request reached, without its query string. */
  path: string;
  /** Lower-case names; secret values "(sensitive)" unless `deliveries({ revealSecrets: true })`. */
  headers: Record<string, string>;
  /** The body parsed as JSON, or its text when it is not JSON (a custom template's output). */
  body: unknown;
  /** The body as sent. */
  text: string;
  /** When the receiver had it (wall clock, ISO 8601). */
  receivedAt: string;
}

/** How deliveries() shows what it received. */
export interface DeliveriesOptions {
  /** Show the values of secret headers (customWebhook `secretHeaders`, Authorization). */
  revealSecrets?: boolean;
}

/** A token createToken() made: its secret is shown this once, as the service shows it. */
export interface CreatedToken {
  /** The token's id (`tok_…`), for `/v2/tokens/{id}`. */
  id: string;
  name: string;
  /** The secret: a bearer token for the emulator's url. */
  token: string;
}

/** The rest of a token createToken() makes. */
export interface CreateTokenOptions {
  /** Default: `test-token-N`. */
  name?: string;
  description?: string;
  /** RFC 3339; default: never. */
  expiresAt?: string;
}

/** A running emulator; `stop()` ends it. */
export interface EmulatorInstance {
  /** `http://127.0.0.1:PORT`: what a stack's provider and a Workspace take as `url`. */
  readonly url: string;
  /** The admin token's secret (every capability). */
  readonly token: string;
  /** The organization the emulator made (every handle has its own). */
  readonly orgId: string;
  /** The data directory: the one given, or the temporary one `stop()` removes. */
  readonly dataDir: string;
  /**
   * Sends EVENTS to DATASET over `/v1/datasets/{name}/ingest`, creating the dataset first
   * when it does not exist. Events without `_time` get the emulator's current time.
   */
  ingest(dataset: string, events: IngestEvent[]): Promise<IngestResult>;
  /**
   * Moves the manual clock forward by DURATION ("90s", "15m", "2h", "1d", or milliseconds),
   * running every monitor due on the way; resolves once their deliveries have had a first
   * attempt. Answers the new time.
   */
  advance(duration: string | number): Promise<Date>;
  /** The emulator's current time. */
  now(): Date;
  /** A URL of the handle's receiver for a webhook or customWebhook notifier; NAME tells deliveries apart. */
  webhookUrl(name?: string): string;
  /** Every request the receiver got, oldest first; secret header values hidden unless asked. */
  deliveries(options?: DeliveriesOptions): Promise<WebhookDelivery[]>;
  /** Forgets the deliveries received so far. */
  clearDeliveries(): void;
  /** A new API token with exactly these capabilities, created over HTTP with the admin token. */
  createToken(capabilities: Capabilities, options?: CreateTokenOptions): Promise<CreatedToken>;
  /** Stops the emulator and the receiver, removes a temporary data directory; safe to call again. */
  stop(): Promise<void>;
}

/** Handles of this process not yet stopped: the last stop ends the shared query threads. */
let running = 0;

const SENSITIVE = "(sensitive)";

function parsedBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function deliveryName(requestPath: string): string {
  const match = /^\/webhooks\/([^/]+)$/.exec(requestPath);
  if (!match) return "";
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
}

class RunningEmulator implements EmulatorInstance {
  readonly url: string;
  readonly orgId: string;
  readonly dataDir: string;
  private readonly secret: string;
  private readonly client: OdsClient;
  private tokensMade = 0;
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly service: EmulatorHandle,
    private readonly receiver: WebhookReceiver,
    dataDir: string,
    private readonly temporary: boolean,
    private readonly manual: boolean,
  ) {
    this.url = service.url;
    this.orgId = service.orgId;
    this.secret = service.adminToken;
    this.dataDir = dataDir;
    this.client = new OdsClient({ url: service.url, token: service.adminToken, orgId: service.orgId });
  }

  get token(): string {
    return this.secret;
  }

  async ingest(dataset: string, events: IngestEvent[]): Promise<IngestResult> {
    if (typeof dataset !== "string" || dataset === "") throw new TypeError(`ingest: dataset must be a dataset name, got ${JSON.stringify(dataset)}`);
    if (!Array.isArray(events)) throw new TypeError(`ingest("${dataset}", events): events must be an array of objects`);
    try {
      return await this.client.ingest(dataset, events);
    } catch (err) {
      if (!(err instanceof OdsApiError && err.status === 404)) throw err;
    }
    try {
      await this.client.createDataset({ name: dataset });
    } catch (err) {
      // Made meanwhile by someone else (a stack being applied): that one is as good.
      if (!(err instanceof OdsApiError && err.status === 409)) throw err;
    }
    return this.client.ingest(dataset, events);
  }

  async advance(duration: string | number): Promise<Date> {
    if (!this.manual) throw new Error('advance(): the clock is the real one; start the emulator with startEmulator({ clock: "manual" }) to move it');
    let move: { advance?: string; set?: string };
    if (typeof duration === "number") {
      if (!(Number.isFinite(duration) && duration >= 0)) throw new RangeError(`advance(${duration}): a duration in milliseconds must be a finite number >= 0`);
      move = { set: new Date(this.service.now() + duration).toISOString() };
    } else if (typeof duration === "string") {
      move = { advance: duration };
    } else {
      throw new TypeError(`advance(): duration must be a string such as "15m" or a number of milliseconds, got ${JSON.stringify(duration)}`);
    }
    try {
      return new Date(await this.service.moveClock(move));
    } catch (err) {
      throw new Error(`advance(${JSON.stringify(duration)}): ${(err as Error).message}`);
    }
  }

  now(): Date {
    return new Date(this.service.now());
  }

  webhookUrl(name = "default"): string {
    if (typeof name !== "string" || name === "") throw new TypeError(`webhookUrl(name): name must be a non-empty string, got ${JSON.stringify(name)}`);
    return `${this.receiver.url}/webhooks/${encodeURIComponent(name)}`;
  }

  async deliveries(options: DeliveriesOptions = {}): Promise<WebhookDelivery[]> {
    const received = this.receiver.received();
    const reveal = options.revealSecrets === true;
    // Which headers may be shown is read from the notifiers pointing here, only when needed.
    const policy = reveal || received.length === 0 ? undefined : secretHeaderPolicy(await this.client.listNotifiers(), this.receiver.url);
    return received.map((r: ReceivedRequest) => ({
      name: deliveryName(r.path),
      method: r.method,
      path: r.path,
      headers: policy ? hideSecretHeaders(r.headers, policy.shownAt(r.path), SENSITIVE) : { ...r.headers },
      body: parsedBody(r.text),
      text: r.text,
      receivedAt: r.receivedAt,
    }));
  }

  clearDeliveries(): void {
    this.receiver.clear();
  }

  async createToken(capabilities: Capabilities, options: CreateTokenOptions = {}): Promise<CreatedToken> {
    if (typeof capabilities !== "object" || capabilities === null || Array.isArray(capabilities)) {
      throw new TypeError("createToken(capabilities): capabilities must be an object such as { orgCapabilities: { monitors: [\"read\"] } }");
    }
    const name = options.name ?? `test-token-${++this.tokensMade}`;
    const made = await this.client.createToken({ ...capabilities, name, ...(options.description !== undefined ? { description: options.description } : {}), ...(options.expiresAt !== undefined ? { expiresAt: options.expiresAt } : {}) });
    return { id: made.id, name: made.name, token: made.token };
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      try {
        await this.client.close();
        await this.receiver.close();
        await this.service.close();
      } finally {
        if (--running === 0) await closeQueryPool();
        if (this.temporary) fs.rmSync(this.dataDir, { recursive: true, force: true });
      }
    })();
    return this.stopping;
  }

  /** Printed or logged, a handle shows where it is, never its token. */
  toJSON(): Record<string, string> {
    return { url: this.url, orgId: this.orgId, dataDir: this.dataDir, token: SENSITIVE };
  }

  [inspect.custom](): string {
    return `EmulatorInstance ${inspect(this.toJSON())}`;
  }
}

/**
 * Starts the emulator in this process (a free port on 127.0.0.1 unless `port` is given),
 * with a manual clock unless `clock: "real"`, and a webhook receiver for `webhookUrl()`.
 * Throws EmulatorOptionError naming an option it cannot take.
 */
export async function startEmulator(options?: StartEmulatorOptions): Promise<EmulatorInstance> {
  const checked = checkOptions(options);
  const temporary = checked.dataDir === undefined;
  const dataDir = checked.dataDir !== undefined ? path.resolve(checked.dataDir) : fs.mkdtempSync(path.join(os.tmpdir(), "ods-emulator-"));
  let receiver: WebhookReceiver | undefined;
  let service: EmulatorHandle | undefined;
  running++;
  try {
    receiver = await startWebhookReceiver();
    service = await startEmulatorService({
      dataDir,
      port: checked.port,
      clock: checked.clock,
      ...(checked.clockStart !== undefined ? { clockStart: checked.clockStart } : {}),
      ...(checked.license !== undefined ? { license: checked.license } : {}),
      ...(checked.faults !== undefined ? { faults: checked.faults } : {}),
    });
    return new RunningEmulator(service, receiver, dataDir, temporary, checked.clock === "manual");
  } catch (err) {
    await receiver?.close();
    if (--running === 0) await closeQueryPool();
    if (temporary) fs.rmSync(dataDir, { recursive: true, force: true });
    if (err instanceof FaultSpecError) throw new EmulatorOptionError("faults", err.message);
    if (err instanceof Error && "code" in err && err.code === "EADDRINUSE") throw new EmulatorOptionError("port", `${checked.port} is taken (pass 0 for a free port)`);
    // The emulator's lock speaks to the command line (--data-dir); here the option is dataDir.
    const held = err instanceof Error ? /is in use by another emulator \(pid (\d+)\)/.exec(err.message) : null;
    if (held) throw new EmulatorOptionError("dataDir", `${dataDir} is in use by another emulator (pid ${held[1]}): stop it, or pass another dataDir`);
    throw err;
  }
}
