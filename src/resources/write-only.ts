// Write-only twins of credentials (Terraform 1.11 write-only arguments). Every credential a
// user supplies (a settable attribute flagged sensitive or secret) gets `<name>_wo`, sent to
// the service as `<name>` but never held by a plan or a state, and `<name>_wo_version`, a
// number whose change sends the value again (the engines cannot see a changed write-only
// value: it is stored nowhere). Derived here from the sensitive flags, so that a credential
// added later gets its twins without anyone remembering to add them.
import { type Attribute, type Attributes, isNested, isSettable, num } from "./attributes";
import type { ValidationIssue, Values } from "./kind";

export const WO_SUFFIX = "_wo";
export const WO_VERSION_SUFFIX = "_wo_version";

/** Whether the user supplies this credential (and so it needs write-only twins). */
export function isSuppliedCredential(attr: Attribute): boolean {
  return isSettable(attr) && !isNested(attr) && !attr.engineOnly && !attr.writeOnly && (attr.sensitive === true || attr.secret === true);
}

function twinsFor(name: string, attr: Attribute): Record<string, Attribute> {
  const plain: Attribute = attr.required
    ? { ...attr, required: false, optional: true, writeOnlyTwin: true, twinRequired: true }
    : { ...attr, writeOnlyTwin: true };
  const wo: Attribute = {
    ...attr,
    description: `Write-only form of \`${name}\` (Terraform 1.11 or later, and ods): sent to the service, never stored in a plan or a state. It is sent on create and again only when \`${name}${WO_VERSION_SUFFIX}\` changes; set exactly one of \`${name}\` and \`${name}${WO_SUFFIX}\`.`,
    required: false,
    optional: true,
    computed: false,
    sensitive: true,
    writeOnly: true,
    wire: undefined,
    default: undefined,
    serverDefault: undefined,
  };
  const version = num(`Version of \`${name}${WO_SUFFIX}\`: change it (1, 2, ...) to send the write-only value again. Stored in the state in its place.`, {
    optional: true,
    writeOnlyVersion: true,
  });
  return { [name]: plain, [`${name}${WO_SUFFIX}`]: wo, [`${name}${WO_VERSION_SUFFIX}`]: version };
}

/**
 * The attributes with a write-only twin and its version beside each supplied credential,
 * at the top level and inside single nested objects (where every credential of the model
 * sits). Terraform allows no write-only attribute under a set, and the engines compare
 * lists and maps of objects as wholes, so those are left as they are.
 */
export function withWriteOnlyTwins(attrs: Attributes): Attributes {
  const out: Record<string, Attribute> = {};
  for (const [name, attr] of Object.entries(attrs)) {
    if (isNested(attr) && attr.type === "object") out[name] = { ...attr, attributes: withWriteOnlyTwins(attr.attributes) };
    else if (isSuppliedCredential(attr) && !attr.writeOnlyTwin) Object.assign(out, twinsFor(name, attr));
    else out[name] = attr;
  }
  return out;
}

/** Supplied credentials that lack their twins, by path: a model error (test/resources/write-only.test.ts). */
export function credentialsWithoutTwins(attrs: Attributes, prefix = ""): string[] {
  const out: string[] = [];
  for (const [name, attr] of Object.entries(attrs)) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (isNested(attr) && attr.type === "object") out.push(...credentialsWithoutTwins(attr.attributes, path));
    else if (isSuppliedCredential(attr)) {
      const wo = attrs[`${name}${WO_SUFFIX}`];
      const version = attrs[`${name}${WO_VERSION_SUFFIX}`];
      if (!attr.writeOnlyTwin || !wo?.writeOnly || !version?.writeOnlyVersion) out.push(path);
    }
  }
  return out;
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** Whether an attribute is, or holds somewhere inside, a write-only value. */
export function holdsWriteOnly(attr: Attribute): boolean {
  if (attr.writeOnly) return true;
  return isNested(attr) && attr.type === "object" && Object.values(attr.attributes).some(holdsWriteOnly);
}

/** The value with every write-only value inside it null: what plans and states hold. */
export function withoutWriteOnlyValue(attr: Attribute, v: unknown): unknown {
  if (attr.writeOnly) return null;
  if (!isSet(v) || !isNested(attr) || attr.type !== "object" || typeof v !== "object") return v;
  return withoutWriteOnly(attr.attributes, v as Values);
}

/** Values with every write-only value null (only objects that hold one are copied). */
export function withoutWriteOnly(attrs: Attributes, values: Values): Values {
  let out: Values | undefined;
  for (const [name, attr] of Object.entries(attrs)) {
    if (!holdsWriteOnly(attr) || !(name in values)) continue;
    const v = withoutWriteOnlyValue(attr, values[name]);
    if (v === values[name]) continue;
    out ??= { ...values };
    out[name] = v;
  }
  return out ?? values;
}

/**
 * `<name>` and `<name>_wo` together are refused; where `<name>` is required, exactly one
 * of them is. Appends issues for the object at `path`.
 */
export function checkTwins(attrs: Attributes, values: Values, path: (string | number)[], out: ValidationIssue[]): void {
  for (const [name, attr] of Object.entries(attrs)) {
    if (!attr.writeOnlyTwin) continue;
    const wo = `${name}${WO_SUFFIX}`;
    const plainSet = isSet(values[name]);
    const woSet = isSet(values[wo]);
    if (plainSet && woSet) out.push({ path: [...path, name], message: `and ${wo} are both set; set exactly one of them (${wo} keeps the value out of plans and states)` });
    else if (attr.twinRequired && !plainSet && !woSet) out.push({ path: [...path, name], message: `is required: set ${name} or its write-only form ${wo}` });
  }
}

/**
 * The live values as a declaration compares them: a credential declared through its
 * write-only twin is not compared with what the service holds (nothing kept says what
 * was sent), so its live value is left out.
 */
export function liveAsDeclared(attr: Attribute, declared: unknown, live: unknown): unknown {
  // An object the declaration leaves out is compared whole (a channel added by hand shows).
  if (!isNested(attr) || attr.type !== "object" || !isSet(live) || typeof live !== "object" || !isSet(declared) || typeof declared !== "object") return live;
  const d = declared as Values;
  let out: Values | undefined;
  for (const [name, child] of Object.entries(attr.attributes)) {
    const l = (live as Values)[name];
    const next = child.writeOnlyTwin && !isSet(d[name]) ? null : liveAsDeclared(child, d[name], l);
    if (next === l || (next === null && !isSet(l))) continue;
    out ??= { ...(live as Values) };
    out[name] = next;
  }
  return out ?? live;
}

/**
 * Top-level attributes whose write-only values are to be sent again, compared with the
 * values last stored (Terraform's state shape): a version that changed, or a credential
 * the state still holds in the plain form while the declaration now uses the twin (that
 * switch also clears it from the state).
 */
export function writeOnlyChanges(attrs: Attributes, declared: Values, previous: Values): string[] {
  return Object.entries(attrs)
    .filter(([name, attr]) => holdsWriteOnly(attr) && writeOnlyDiffers(attr, declared[name], previous[name]))
    .map(([name]) => name);
}

function writeOnlyDiffers(attr: Attribute, declared: unknown, previous: unknown): boolean {
  if (!isNested(attr) || attr.type !== "object") return false;
  if (!isSet(declared) || !isSet(previous) || typeof declared !== "object" || typeof previous !== "object") return false;
  const d = declared as Values;
  const p = previous as Values;
  for (const [name, child] of Object.entries(attr.attributes)) {
    if (child.writeOnlyVersion && (d[name] ?? null) !== (p[name] ?? null)) return true;
    if (child.writeOnlyTwin && isSet(d[`${name}${WO_SUFFIX}`]) && isSet(p[name])) return true;
    if (writeOnlyDiffers(child, d[name], p[name])) return true;
  }
  return false;
}

/**
 * The values an update sends: a write-only value goes only when its version changed since
 * `previous` (the values last stored), or the state still held the plain form; otherwise it
 * is withheld (null), and the service keeps what it holds.
 */
export function withheldWriteOnly(attrs: Attributes, values: Values, previous: Values): Values {
  let out: Values | undefined;
  for (const [name, attr] of Object.entries(attrs)) {
    const v = values[name];
    let next = v;
    if (attr.writeOnly) {
      const plain = name.slice(0, -WO_SUFFIX.length);
      const sameVersion = (values[`${plain}${WO_VERSION_SUFFIX}`] ?? null) === (previous[`${plain}${WO_VERSION_SUFFIX}`] ?? null);
      if (isSet(v) && sameVersion && !isSet(previous[plain])) next = null;
    } else if (isNested(attr) && attr.type === "object" && holdsWriteOnly(attr) && isSet(v) && typeof v === "object") {
      const p = previous[name];
      next = withheldWriteOnly(attr.attributes, v as Values, (isSet(p) && typeof p === "object" ? p : {}) as Values);
    }
    if (next === v) continue;
    out ??= { ...values };
    out[name] = next;
  }
  return out ?? values;
}

/**
 * For an update that withholds a write-only value the service returns (a credential URL):
 * the live value in its place, since the service replaces the object on update and would
 * otherwise lose it. A secret the service never returns reads as "" and is left out (the
 * service keeps a secret left out, docs/service-contract.md section 6).
 */
export function keepingWithheld(attrs: Attributes, values: Values, live: Values): Values {
  let out: Values | undefined;
  for (const [name, attr] of Object.entries(attrs)) {
    const v = values[name];
    let next = v;
    if (attr.writeOnlyTwin && !isSet(v) && !isSet(values[`${name}${WO_SUFFIX}`]) && isSet(live[name]) && live[name] !== "" && !attr.secret) next = live[name];
    else if (isNested(attr) && attr.type === "object" && holdsWriteOnly(attr) && isSet(v) && typeof v === "object") {
      const l = live[name];
      next = keepingWithheld(attr.attributes, v as Values, (isSet(l) && typeof l === "object" ? l : {}) as Values);
    }
    if (next === v) continue;
    out ??= { ...values };
    out[name] = next;
  }
  return out ?? values;
}

/** Whether the values withhold a write-only value the service returns (so an update needs the live object). */
export function withholdsReadable(attrs: Attributes, values: Values): boolean {
  for (const [name, attr] of Object.entries(attrs)) {
    const v = values[name];
    if (attr.writeOnlyTwin && attr.twinRequired && !attr.secret && !isSet(v) && !isSet(values[`${name}${WO_SUFFIX}`])) return true;
    if (isNested(attr) && attr.type === "object" && isSet(v) && typeof v === "object" && withholdsReadable(attr.attributes, v as Values)) return true;
  }
  return false;
}

/** Write-only values taken from `config` into `values` (Terraform's plan holds them as null; its config has them). */
export function withWriteOnlyFrom(attrs: Attributes, values: Values, config: Values): Values {
  let out: Values | undefined;
  for (const [name, attr] of Object.entries(attrs)) {
    let next = values[name];
    if (attr.writeOnly) next = config[name] ?? null;
    else if (isNested(attr) && attr.type === "object" && holdsWriteOnly(attr) && isSet(next) && isSet(config[name]) && typeof next === "object") {
      next = withWriteOnlyFrom(attr.attributes, next as Values, config[name] as Values);
    }
    if (next === values[name] || (next === null && !isSet(values[name]))) continue;
    out ??= { ...values };
    out[name] = next;
  }
  return out ?? values;
}
