// Everything the CLI prints passes here: values of sensitive variables (and secrets read
// from other stacks) are replaced by "(sensitive)" wherever they occur, whatever printed
// them: a plan, a validation error, a service's answer quoted in an error.
import { redactText } from "../reconcile/redact";

const secrets = new Set<string>();
let installed = false;

/** Hides these strings in all later output of this process. */
export function addSecrets(values: readonly string[]): void {
  for (const v of values) secrets.add(v);
  if (values.length > 0) install();
}

export function redact(text: string): string {
  return redactText(text, [...secrets]);
}

function wrap(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]): boolean => {
    if (secrets.size === 0) return write(chunk, ...rest);
    const text = typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : chunk;
    return write(typeof text === "string" ? redact(text) : text, ...rest);
  }) as NodeJS.WriteStream["write"];
}

function install(): void {
  if (installed) return;
  installed = true;
  wrap(process.stdout);
  wrap(process.stderr);
}
