// Which headers of a received webhook may be shown. The receiver cannot tell a secret from
// its value, so a header is shown only when known not to be one: those every delivery
// carries (content type, user agent, transport), and the plain `headers` of the
// customWebhook notifiers pointing at that path, unless another of them sends the same
// name as a secret. Anything else (secretHeaders, Authorization, the headers of a notifier
// since deleted) reads "(sensitive)".
import type { Notifier } from "../api";

const ALWAYS_SHOWN = new Set(["accept", "accept-encoding", "connection", "content-length", "content-type", "host", "transfer-encoding", "user-agent"]);

export interface SecretHeaderPolicy {
  /** Lower-case header names that may be shown for a request to PATH. */
  shownAt(path: string): ReadonlySet<string>;
}

function pathAt(url: string, base: string): string | undefined {
  if (!url.startsWith(`${base}/`)) return undefined;
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}

export function secretHeaderPolicy(notifiers: readonly Notifier[], receiverUrl: string): SecretHeaderPolicy {
  const plain = new Map<string, Set<string>>();
  const secret = new Map<string, Set<string>>();
  const add = (map: Map<string, Set<string>>, at: string, names: Iterable<string>): void => {
    const set = map.get(at) ?? new Set<string>();
    for (const name of names) set.add(name.toLowerCase());
    map.set(at, set);
  };
  for (const notifier of notifiers) {
    const channel = notifier.properties.customWebhook;
    const at = channel ? pathAt(channel.url, receiverUrl) : undefined;
    if (!channel || at === undefined) continue;
    add(plain, at, Object.keys(channel.headers ?? {}));
    add(secret, at, Object.keys(channel.secretHeaders ?? {}));
  }
  return {
    shownAt: (at) => {
      const shown = new Set([...ALWAYS_SHOWN, ...(plain.get(at) ?? [])]);
      for (const name of secret.get(at) ?? []) shown.delete(name);
      return shown;
    },
  };
}

/** HEADERS with every value not in SHOWN replaced by MASK. */
export function hideSecretHeaders(headers: Readonly<Record<string, string>>, shown: ReadonlySet<string>, mask: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, shown.has(name.toLowerCase()) ? value : mask]));
}
