// The `http` backend: the protocol of Terraform's http backend, which GitLab and many
// state servers speak. GET reads the state (204/404: none yet), POST (update_method)
// writes it with `?ID=<lock id>` while locked, LOCK/UNLOCK (lock_method/unlock_method) on
// lock_address/unlock_address carry Terraform's lock record; 409/423 answer the holder's.
import * as crypto from "node:crypto";
import { exchange } from "../../api/http-exchange";
import { redactCredentials } from "../../resources";
import { FileJournal } from "../state-journal";
import { LockHeldError, StateBackendError, type LockInfo, type StateBackend } from "./types";

export interface HttpBackendConfig {
  address: string;
  updateMethod: string;
  lockAddress?: string;
  lockMethod: string;
  unlockAddress?: string;
  unlockMethod: string;
  username?: string;
  password?: string;
  /**
   * A file on this machine where answers between whole writes are appended; without it
   * every save rewrites the whole state on the server.
   */
  journalFile?: string;
  /** How often the server's state is written whole while a journal grows (HTTP_STATE_MAX_LAG_SECONDS). */
  journalMaxLagSeconds?: number;
}

/**
 * The protocol has no append, so the journal is local and the state on the server is
 * written whole at least this often during an apply (and at its end).
 */
export const HTTP_STATE_MAX_LAG_SECONDS = 10;

/** A URL fit for messages: its credentials hidden by the rule every message follows; an unparseable one not shown. */
export function redactUrl(url: string): string {
  return URL.canParse(url) ? redactCredentials(url) : "(an invalid URL)";
}

export class HttpBackend implements StateBackend {
  private held?: LockInfo;
  readonly journal?: FileJournal;

  constructor(private readonly config: HttpBackendConfig) {
    if (config.journalFile) this.journal = new FileJournal(config.journalFile, config.journalMaxLagSeconds ?? HTTP_STATE_MAX_LAG_SECONDS);
  }

  get description(): string {
    return `http state at ${redactUrl(this.config.address)}`;
  }

  private async call(method: string, url: string, body?: string): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = {};
    if (this.config.username) {
      headers.authorization = `Basic ${Buffer.from(`${this.config.username}:${this.config.password ?? ""}`).toString("base64")}`;
    }
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-md5"] = crypto.createHash("md5").update(body).digest("base64");
    }
    let res;
    try {
      res = await exchange(url, { method, headers, body, idleTimeoutMs: 30_000 });
    } catch (err) {
      throw new StateBackendError(`cannot reach the ${this.description} (${method}): ${(err as Error).message}`);
    }
    if (res.status === 401 || res.status === 403) {
      throw new StateBackendError(`the ${this.description} refused the credentials (${res.status} on ${method}); set username and password in the backend block, or TF_HTTP_USERNAME and TF_HTTP_PASSWORD`);
    }
    return { status: res.status, text: res.text };
  }

  async read(): Promise<string | undefined> {
    const { status, text } = await this.call("GET", this.config.address);
    if (status === 204 || status === 404) return undefined;
    if (status !== 200) throw new StateBackendError(`the ${this.description} answered ${status} to GET`);
    // Terraform reads an empty 200 as no state; ods refuses it (see EmptyStateError): a
    // server that lost the state must not make the next apply adopt every object.
    return text;
  }

  async write(text: string): Promise<void> {
    const url = new URL(this.config.address);
    if (this.held) url.searchParams.set("ID", this.held.ID);
    const { status } = await this.call(this.config.updateMethod, url.toString(), text);
    if (status !== 200 && status !== 201 && status !== 204) {
      throw new StateBackendError(`the ${this.description} answered ${status} to ${this.config.updateMethod}: the state was not saved`);
    }
  }

  async lock(info: LockInfo): Promise<string> {
    if (!this.config.lockAddress) return info.ID; // the server offers no locking, as with Terraform
    const { status, text } = await this.call(this.config.lockMethod, this.config.lockAddress, JSON.stringify(info));
    if (status === 200) {
      this.held = info;
      return info.ID;
    }
    if (status === 409 || status === 423) {
      let holder: Partial<LockInfo> | undefined;
      try {
        holder = JSON.parse(text) as LockInfo;
      } catch {
        holder = undefined;
      }
      throw new LockHeldError(this.description, holder);
    }
    throw new StateBackendError(`the ${this.description} answered ${status} to ${this.config.lockMethod}`);
  }

  private async release(info: Partial<LockInfo>): Promise<void> {
    if (!this.config.unlockAddress) return;
    const { status } = await this.call(this.config.unlockMethod, this.config.unlockAddress, JSON.stringify(info));
    if (status !== 200) throw new StateBackendError(`the ${this.description} answered ${status} to ${this.config.unlockMethod} of lock ${info.ID ?? ""}`);
  }

  async unlock(): Promise<void> {
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    await this.release(held);
  }

  async forceUnlock(id: string): Promise<void> {
    await this.release({ ID: id });
  }

  async close(): Promise<void> {
    await this.unlock();
  }
}
