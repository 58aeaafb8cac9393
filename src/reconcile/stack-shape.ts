// The shape cdktf writes into cdk.tf.json, checked before anything is read from it.
// A file of another shape (an array, a misspelled section, a block that is not an
// object) must never read as "nothing declared": that plan would delete everything
// the state manages. Every problem names the file and the JSON path.

/** Top-level sections of a Terraform JSON configuration, as cdktf writes them. */
const TOP_LEVEL = ["//", "terraform", "provider", "resource", "data", "ephemeral", "output", "variable", "locals", "module", "moved", "import", "check", "removed"];

/** Type names are lower case, as every provider's are (`terraform_remote_state`). */
const TYPE_NAME = /^[a-z][a-z0-9_]*$/;
/** Block names are Terraform identifiers. */
const BLOCK_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function key(pathSoFar: string, name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `${pathSoFar}.${name}` : `${pathSoFar}[${JSON.stringify(name)}]`;
}

/**
 * Problems with the shape of a synthesized stack, each as "at PATH: what was expected".
 * Empty when the JSON has the shape cdktf writes.
 */
export function shapeProblems(json: unknown): string[] {
  const problems: string[] = [];
  const expect = (where: string, what: string, got: unknown): void => {
    problems.push(`at ${where}: expected ${what}, got ${kindOf(got)}`);
  };
  if (!isObject(json)) {
    expect("$", "an object (a Terraform JSON configuration as cdktf writes it)", json);
    return problems;
  }
  for (const name of Object.keys(json)) {
    if (!TOP_LEVEL.includes(name)) {
      const near = TOP_LEVEL.find((k) => k !== "//" && (name.toLowerCase() === k || name.toLowerCase() === `${k}s` || `${name.toLowerCase()}s` === k));
      problems.push(`at ${key("$", name)}: unknown section "${name}"${near ? ` (did you mean "${near}"?)` : ""}; expected one of ${TOP_LEVEL.filter((k) => k !== "//").join(", ")}`);
    }
  }
  for (const section of ["resource", "data"] as const) {
    const blocks = json[section];
    if (blocks === undefined) continue;
    const where = `$.${section}`;
    if (!isObject(blocks)) {
      expect(where, `an object of ${section === "data" ? "data source" : "resource"} types`, blocks);
      continue;
    }
    for (const [typeName, byName] of Object.entries(blocks)) {
      const typeWhere = key(where, typeName);
      if (!TYPE_NAME.test(typeName)) {
        problems.push(`at ${typeWhere}: "${typeName}" is not a type name (type names are lower case${/^[A-Za-z0-9_]+$/.test(typeName) ? `: "${typeName.toLowerCase()}"?` : ""})`);
        continue;
      }
      if (!isObject(byName)) {
        expect(typeWhere, `an object of named ${typeName} blocks`, byName);
        continue;
      }
      for (const [name, block] of Object.entries(byName)) {
        const blockWhere = key(typeWhere, name);
        if (!BLOCK_NAME.test(name)) problems.push(`at ${blockWhere}: "${name}" is not a valid block name`);
        else if (!isObject(block)) expect(blockWhere, "an object of attributes", block);
        else metaProblems(block, blockWhere, problems);
      }
    }
  }
  const named = (section: string, what: string): void => {
    const value = json[section];
    if (value === undefined) return;
    if (!isObject(value)) {
      expect(`$.${section}`, `an object of ${what}`, value);
      return;
    }
    for (const [name, block] of Object.entries(value)) {
      if (!isObject(block)) expect(key(`$.${section}`, name), "an object", block);
    }
  };
  named("output", "outputs");
  named("variable", "variables");
  named("terraform", "settings");
  const providers = json.provider;
  if (providers !== undefined) {
    if (!isObject(providers)) expect("$.provider", "an object of provider configurations", providers);
    else {
      for (const [name, configs] of Object.entries(providers)) {
        const where = key("$.provider", name);
        const list = Array.isArray(configs) ? configs : [configs];
        list.forEach((c, i) => {
          if (!isObject(c)) expect(Array.isArray(configs) ? `${where}[${i}]` : where, "an object", c);
        });
      }
    }
  }
  return problems;
}

/** Meta-arguments keep the shape Terraform gives them; null stands for "not set". */
function metaProblems(block: Record<string, unknown>, where: string, problems: string[]): void {
  const dependsOn = block.depends_on;
  if (dependsOn !== undefined && dependsOn !== null && (!Array.isArray(dependsOn) || dependsOn.some((d) => typeof d !== "string"))) {
    problems.push(`at ${where}.depends_on: expected a list of addresses, got ${kindOf(dependsOn)}`);
  }
  const lifecycle = block.lifecycle;
  if (lifecycle !== undefined && lifecycle !== null && !isObject(lifecycle)) {
    problems.push(`at ${where}.lifecycle: expected an object, got ${kindOf(lifecycle)}`);
  } else if (isObject(lifecycle)) {
    const pd = lifecycle.prevent_destroy;
    if (pd !== undefined && pd !== null && typeof pd !== "boolean") problems.push(`at ${where}.lifecycle.prevent_destroy: expected true or false, got ${kindOf(pd)}`);
  }
  const provider = block.provider;
  if (provider !== undefined && provider !== null && typeof provider !== "string") {
    problems.push(`at ${where}.provider: expected a provider reference like "ods.staging", got ${kindOf(provider)}`);
  }
}
