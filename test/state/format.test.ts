// The state in Terraform's format: what is written, what is read back, what is refused,
// and the one-time conversion of the previous ods format.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LocalBackend } from "../../src/reconcile/backends";
import { StateStore, emptyState, parseState, serializeState, setStateOrganization, stateOrganization, type StateFile } from "../../src/reconcile/state";
import { removeTempDirs, tempDir } from "../helpers/ods-cli";

afterEach(() => removeTempDirs());

function sampleState(): StateFile {
  const s = emptyState();
  s.lineage = "6f0c1a52-0000-4000-8000-000000000001";
  setStateOrganization(s, "ods", { id: "org-1", name: "Org One" });
  s.resources["ods_notifier.n"] = {
    typeName: "ods_notifier",
    id: "ntf_1",
    values: { id: "ntf_1", name: "n", properties: { incident_a: { api_key: null, is_eu: true } } },
    engineValues: {},
    secretFingerprints: {},
    dependsOn: ["ods_role.r"],
    attributes: {
      id: "ntf_1", name: "n", disabled_until: null, created_at: "2026-01-01T00:00:00Z", created_by: "u",
      properties: { incident_a: { api_key: "key-123456", is_eu: true }, chat_b: null },
    },
  };
  s.resources["ods_api_token.t"] = {
    typeName: "ods_api_token", id: "tok_1", values: { id: "tok_1", name: "t" }, engineValues: { rotation_grace_period: "0s" },
    secretFingerprints: {}, sensitive: { token: "odst_secret_value" }, dependsOn: [],
  };
  s.outputs = { tok: { value: "odst_secret_value", sensitive: true }, n: { value: { a: ["x", 1] }, sensitive: false } };
  return s;
}

describe("the state in Terraform's format", () => {
  it("is written as Terraform 1.11 writes it, with ods's own data in private", () => {
    const doc = JSON.parse(serializeState(sampleState()));
    expect(doc).toMatchObject({ version: 4, terraform_version: "1.11.4", lineage: "6f0c1a52-0000-4000-8000-000000000001", check_results: null });
    expect(doc.outputs.tok).toEqual({ value: "odst_secret_value", type: "string", sensitive: true });
    expect(doc.outputs.n.type).toEqual(["object", { a: ["tuple", ["string", "number"]] }]);
    expect(doc.resources.map((r: { type: string }) => r.type)).toEqual(["ods_api_token", "ods_notifier"]);
    const [token, notifier] = doc.resources;
    expect(token.provider).toBe('provider["registry.terraform.io/ods/ods"]');
    expect(token.instances[0].attributes.token).toBe("odst_secret_value");
    expect(token.instances[0].sensitive_attributes).toEqual([[{ type: "get_attr", value: "token" }]]);
    const inst = notifier.instances[0];
    expect(inst.dependencies).toEqual(["ods_role.r"]);
    // Every schema-sensitive path of a present object, the write-only twin's too (null as it is).
    const incidentA = (leaf: string) => [{ type: "get_attr", value: "properties" }, { type: "get_attr", value: "incident_a" }, { type: "get_attr", value: leaf }];
    expect(inst.sensitive_attributes).toEqual([incidentA("api_key"), incidentA("api_key_wo")]);
    const priv = JSON.parse(Buffer.from(inst.private, "base64").toString("utf8"));
    expect(priv.ods.organization).toBe("org-1");
    expect(typeof priv.ods.salt).toBe("string");
  });

  it("keeps sensitivity marks and a rotation's intent: marks as Terraform's sensitive_attributes, both in private", () => {
    const s = sampleState();
    s.resources["ods_role.r"] = {
      typeName: "ods_role", id: "rol_1", values: { id: "rol_1", name: "r", description: "x" }, engineValues: {},
      secretFingerprints: {}, dependsOn: [], marked: ["description"],
    };
    s.resources["ods_api_token.t"].rotating = "tok_1";
    const doc = JSON.parse(serializeState(s));
    const role = doc.resources.find((r: { type: string }) => r.type === "ods_role");
    expect(role.instances[0].sensitive_attributes).toEqual([[{ type: "get_attr", value: "description" }]]);
    const back = parseState(JSON.stringify(doc), "test");
    expect(back.resources["ods_role.r"].marked).toEqual(["description"]);
    expect(back.resources["ods_api_token.t"].rotating).toBe("tok_1");
    // Finished elsewhere (Terraform rotated the token: a new id), the old intent is void.
    const token = doc.resources.find((r: { type: string }) => r.type === "ods_api_token");
    token.instances[0].attributes.id = "tok_2";
    expect(parseState(JSON.stringify(doc), "test").resources["ods_api_token.t"].rotating).toBeUndefined();
  });

  it("is exactly what JSON.stringify writes, with foreign entries, check results and no resources at all", () => {
    const s = sampleState();
    s.foreign = [{ mode: "data", type: "ods_dataset", name: "d", provider: 'provider["registry.terraform.io/ods/ods"]', instances: [{ schema_version: 0, attributes: { name: "x\ny" } }] }];
    s.checkResults = [{ object_kind: "resource", config_addr: "x", status: "pass", objects: [{ object_addr: "x", status: "pass" }] }];
    for (const state of [s, emptyState()]) {
      const text = serializeState(state);
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    }
    expect(JSON.parse(serializeState(s)).resources.map((r: { mode: string; type: string }) => `${r.mode}.${r.type}`)).toEqual(["data.ods_dataset", "managed.ods_api_token", "managed.ods_notifier"]);
  });

  it("writes what changed since the last write: replaced values, a provider or organization set in place", () => {
    const s = sampleState();
    const first = JSON.parse(serializeState(s));
    expect(first.resources[0].instances[0].attributes.name).toBe("t");
    const token = s.resources["ods_api_token.t"];
    s.resources["ods_api_token.t"] = { ...token, values: { ...token.values, name: "t2" }, attributes: undefined };
    expect(JSON.parse(serializeState(s)).resources[0].instances[0].attributes.name).toBe("t2");
    s.resources["ods_api_token.t"].provider = 'provider["registry.terraform.io/ods/ods"].eu';
    setStateOrganization(s, "ods.eu", { id: "org-eu" });
    const moved = JSON.parse(serializeState(s)).resources[0];
    expect(moved.provider).toBe('provider["registry.terraform.io/ods/ods"].eu');
    expect(JSON.parse(Buffer.from(moved.instances[0].private, "base64").toString("utf8")).ods.organization).toBe("org-eu");
  });

  it("reads back what it wrote: ids, secrets, fingerprints, outputs and the organization", () => {
    const first = sampleState();
    const back = parseState(serializeState(first), "test");
    expect(stateOrganization(back, "ods")).toEqual({ id: "org-1", name: "Org One" });
    expect(back.fingerprintSalt).toBe(first.fingerprintSalt);
    expect(back.resources["ods_api_token.t"].sensitive).toEqual({ token: "odst_secret_value" });
    expect(back.resources["ods_api_token.t"].engineValues).toEqual({ rotation_grace_period: "0s" });
    const n = back.resources["ods_notifier.n"];
    expect(n.id).toBe("ntf_1");
    expect(Object.keys(n.secretFingerprints)).toEqual(["properties.incident_a.api_key"]);
    // The secret stays out of the values the engine compares and shows.
    expect(JSON.stringify(n.values)).not.toContain("key-123456");
    expect(back.outputs.tok).toEqual({ value: "odst_secret_value", sensitive: true });
    expect(parseState(serializeState(back), "again").resources).toEqual(back.resources);
  });

  it("keeps one organization per provider configuration: each instance carries its own provider's, and variable-sensitive attributes", () => {
    const s = sampleState();
    s.resources["ods_api_token.t"].provider = 'provider["registry.terraform.io/ods/ods"].staging';
    s.resources["ods_api_token.t"].sensitiveAttributes = ["name"];
    setStateOrganization(s, "ods.staging", { id: "org-2" });
    const doc = JSON.parse(serializeState(s));
    const privOf = (type: string): { ods: { organization?: string } } => {
      const r = doc.resources.find((x: { type: string }) => x.type === type);
      return JSON.parse(Buffer.from(r.instances[0].private, "base64").toString("utf8"));
    };
    expect(privOf("ods_notifier").ods.organization).toBe("org-1");
    expect(privOf("ods_api_token").ods.organization).toBe("org-2");
    const back = parseState(JSON.stringify(doc), "test");
    expect(stateOrganization(back, "ods")?.id).toBe("org-1");
    expect(stateOrganization(back, "ods.staging")?.id).toBe("org-2");
    expect(back.resources["ods_api_token.t"].sensitiveAttributes).toEqual(["name"]);
    expect(back.resources["ods_notifier.n"].sensitiveAttributes).toBeUndefined();
  });

  it("keeps what it does not manage (data sources, other providers) as it was", () => {
    const doc = JSON.parse(serializeState(sampleState()));
    const data = { mode: "data", type: "ods_organization", name: "o", provider: 'provider["registry.terraform.io/ods/ods"]', instances: [{ schema_version: 0, attributes: { id: "x" }, sensitive_attributes: [] }] };
    const other = { mode: "managed", type: "random_id", name: "r", provider: 'provider["registry.terraform.io/hashicorp/random"]', instances: [{ schema_version: 0, attributes: { id: "y" }, sensitive_attributes: [] }] };
    doc.resources.push(data, other);
    const again = JSON.parse(serializeState(parseState(JSON.stringify(doc), "test")));
    expect(again.resources).toContainEqual(data);
    expect(again.resources).toContainEqual(other);
  });

  it("refuses a corrupt, a truncated, a foreign, an older and a newer state, leaving each untouched", async () => {
    const d = tempDir();
    const cases: [string, RegExp][] = [
      ["{not json", /not valid JSON/],
      ['{"version": 4, "resources": [', /not valid JSON/],
      ['{"hello": "world"}', /does not look like a Terraform or ods state/],
      [JSON.stringify({ version: 3, resources: [] }), /format version 3; run a current terraform/],
      [JSON.stringify({ version: 5, resources: [] }), /newer than this ods understands/],
      [JSON.stringify({ version: 4, resources: [{ mode: "managed", type: "ods_role", name: "r", instances: [{ attributes: { name: "r" } }] }] }), /ods_role.r has no attributes with an id/],
    ];
    for (const [i, [text, message]] of cases.entries()) {
      const file = path.join(d, `s${i}.tfstate`);
      fs.writeFileSync(file, text);
      await expect(new StateStore(new LocalBackend(file)).read()).rejects.toThrow(message);
      expect(fs.readFileSync(file, "utf8")).toBe(text);
    }
  });

  it("is written with mode 0600, leaving no temporary file behind", async () => {
    const file = path.join(tempDir(), "nested", "terraform.main.tfstate");
    const store = new StateStore(new LocalBackend(file));
    const s = sampleState();
    await store.write(s);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["terraform.main.tfstate"]);
    expect((await store.read()).serial).toBe(1);
  });

  it("recovers the complete copy when a run died while rewriting the file in place", async () => {
    const file = path.join(tempDir(), "terraform.main.tfstate");
    const store = new StateStore(new LocalBackend(file));
    const s = sampleState();
    await store.write(s);
    const complete = serializeState({ ...s, serial: s.serial + 1 });
    fs.writeFileSync(`${file}.ods-pending`, complete);
    fs.writeFileSync(file, complete.slice(0, 40)); // the in-place rewrite was cut short
    expect((await store.read()).serial).toBe(s.serial + 1);
  });
});

describe("the previous ods format", () => {
  const legacy = {
    formatVersion: 1, lineage: "old-lineage", serial: 7, fingerprintSalt: "salt",
    resources: {
      "ods_role.r": { typeName: "ods_role", id: "rol_1", values: { id: "rol_1", name: "r" }, engineValues: {}, secretFingerprints: {}, dependsOn: [] },
      "ods_api_token.t": { typeName: "ods_api_token", id: "tok_1", values: { id: "tok_1", name: "t" }, engineValues: {}, secretFingerprints: {}, sensitive: { token: "odst_x" }, dependsOn: ["ods_role.r"] },
    },
    outputs: {},
  };

  it("is read once and converted on the first write, with a backup beside it and a line saying so", async () => {
    const d = tempDir();
    const legacyFile = path.join(d, ".ods", "state", "main.json");
    fs.mkdirSync(path.dirname(legacyFile), { recursive: true });
    fs.writeFileSync(legacyFile, JSON.stringify(legacy));
    const lines: string[] = [];
    const target = path.join(d, "terraform.main.tfstate");
    const store = new StateStore(new LocalBackend(target), (l) => lines.push(l), legacyFile);
    const s = await store.read();
    expect(s.lineage).toBe("old-lineage");
    expect(s.fingerprintSalt).toBe("salt");
    expect(s.resources["ods_api_token.t"].sensitive?.token).toBe("odst_x");
    await store.write(s);
    expect(lines.join("\n")).toMatch(/Converted the ods state .*main\.json to Terraform's state format .*kept as .*main\.json\.ods-v1\.backup/);
    expect(fs.existsSync(legacyFile)).toBe(false);
    expect(JSON.parse(fs.readFileSync(`${legacyFile}.ods-v1.backup`, "utf8"))).toEqual(legacy);
    const doc = JSON.parse(fs.readFileSync(target, "utf8"));
    expect(doc.version).toBe(4);
    expect(doc.serial).toBe(8);
    expect(doc.lineage).toBe("old-lineage");
    // Read again: Terraform's format now, same content.
    const again = await new StateStore(new LocalBackend(target), (l) => lines.push(l), legacyFile).read();
    expect(again.resources["ods_api_token.t"].sensitive?.token).toBe("odst_x");
    expect(again.fingerprintSalt).toBe("salt");
  });

  it("names a hand-edited entry that is not a state entry, leaving the file untouched", async () => {
    const file = path.join(tempDir(), "state.json");
    const cases: [unknown, RegExp][] = [
      [null, /the entry ods_role\.broken is null/],
      [{ id: "x" }, /the entry ods_role\.broken has no typeName/],
      [{ typeName: "ods_role", values: {} }, /the entry ods_role\.broken has no id/],
    ];
    for (const [bad, message] of cases) {
      const text = JSON.stringify({ ...legacy, resources: { "ods_role.broken": bad } });
      fs.writeFileSync(file, text);
      await expect(new StateStore(new LocalBackend(file)).read()).rejects.toThrow(message);
      expect(fs.readFileSync(file, "utf8")).toBe(text);
    }
  });
});
