// Answers kept by the request that produced them, for the RPCs whose answer depends on
// nothing but the request: Terraform asks them again and again with the same bytes. One
// `terraform plan` validates every resource's configuration twice (its validate walk,
// then its plan walk) and every command upgrades every stored state anew.
//
// Keys hold a SHA-256 digest of the request bytes, never the bytes: a configuration
// carries write-only values (secrets), which are not kept beyond the call. An upgrade's
// answer is the state Terraform stores, held in this process's memory as Terraform holds
// it in its own. Entries are evicted least recently used first, by the summed size of
// what they hold.
import { hash } from "node:crypto";

/**
 * A request's key: its identifying parts in the clear (RPC, type, version: no values),
 * then the digest of its bytes. The one-shot hash(): a Hash object per call cost more
 * than the digest itself.
 */
export function requestKey(head: string, bytes: Uint8Array): string {
  return `${head}\0${hash("sha256", bytes, "base64")}`;
}

interface Entry<V> {
  readonly value: V;
  readonly size: number;
}

export class AnswerMemo<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private heldBytes = 0;

  /** `maxBytes`: the most the values may hold in total, as their sizes are given to set(). */
  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Most recently used last: Map iterates in insertion order, so eviction takes the first.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` (of `size` bytes); a value larger than the whole memo is not kept. */
  set(key: string, value: V, size: number): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.heldBytes -= old.size;
    }
    if (size > this.maxBytes) return;
    this.entries.set(key, { value, size });
    this.heldBytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.heldBytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.heldBytes -= entry.size;
    }
  }
}
