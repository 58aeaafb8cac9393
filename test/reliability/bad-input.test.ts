// Malformed stacks and attribute values, and broken state files: each is stopped with a
// clear error (the construct path or the attribute named, no stack trace) before any
// write reaches the service; a state file the engine cannot read is left byte for byte.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { leakedSecrets, removeTempDirs, runOds, stackFlags, tempDir, writeStack, type StackSpec } from "../helpers/ods-cli";
import { emptyCounts, FULL, recordSuite, writesIn } from "./helpers";

let emu: EmulatorHandle;
const counts = emptyCounts();
const outputs: string[] = [];
const SECRET = "bad-input-secret-5f2c9a";

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
});
afterAll(async () => {
  counts.secretsLeaked = leakedSecrets(outputs, [SECRET, emu.adminToken]).length;
  recordSuite("bad-input", counts);
  await emu.close();
  removeTempDirs();
});

type Block = Record<string, unknown>;
interface BadCase {
  what: string;
  type: string;
  attrs: Block;
  /** Besides the construct path: text the error must contain (the attribute, the reference). */
  mentions: string;
  /** Other resources the case needs. */
  extra?: NonNullable<StackSpec["resource"]>;
}

const hook = { webhook: { url: "https://hooks.example.com/x" } };
const long = "x".repeat(70_000);
const notifier = (attrs: Block): Block => ({ name: "bad-notifier", properties: hook, ...attrs });
const role = (attrs: Block): Block => ({ name: "bad-role", ...attrs });
const token = (attrs: Block): Block => ({ name: "bad-token", ...attrs });
const vfield = (attrs: Block): Block => ({ dataset: "logs", name: "vf", expression: "a + 1", ...attrs });
const query = (attrs: Block, q: Block = {}): Block => ({ dataset: "logs", name: "sq", query: { apl: "['logs'] | count", ...q }, ...attrs });
const monitor = (attrs: Block): Block => ({
  name: "bad-monitor", type: "Threshold", apl_query: "['logs'] | summarize count()", operator: "Above", threshold: 1, interval_minutes: 1, range_minutes: 1, ...attrs,
});
const view = (attrs: Block): Block => ({ name: "bad-view", apl_query: "['logs'] | take 1", ...attrs });
const goodDocument = {
  name: "Bad", owner: "X-AXIOM-EVERYONE", refreshTime: 60, schemaVersion: 2, timeWindowStart: "qr-now-1h", timeWindowEnd: "qr-now",
  charts: [{ id: "c1", type: "Table", query: { apl: "['logs'] | take 1" } }],
  layout: [{ i: "c1", x: 0, y: 0, w: 6, h: 4 }],
};
const dashboard = (doc: Block): Block => ({ uid: "bad-dash", dashboard: JSON.stringify({ ...goodDocument, ...doc }) });
const user = (attrs: Block): Block => ({ email: "bad@example.com", name: "Bad User", role: "read-only", ...attrs });

const CASES: BadCase[] = [
  // wrong types
  { what: "a number for a string", type: "ods_notifier", attrs: notifier({ name: 42 }), mentions: "name" },
  { what: "a string for a list", type: "ods_notifier", attrs: notifier({ properties: { email: { emails: "a@example.com" } } }), mentions: "emails" },
  { what: "a list for a string", type: "ods_role", attrs: role({ description: ["a"] }), mentions: "description" },
  { what: "a string for a list of members", type: "ods_role", attrs: role({ members: "usr_1" }), mentions: "members" },
  { what: "a string for a bool", type: "ods_dataset", attrs: { name: "typed-ds", allow_destroy: "yes" }, mentions: "allow_destroy" },
  { what: "a string for a bool in a field", type: "ods_dataset_field", attrs: { dataset: "logs", name: "f", hidden: "true" }, mentions: "hidden" },
  { what: "a string for a number", type: "ods_starred_query", attrs: query({}, { default_limit: "ten" }), mentions: "default_limit" },
  { what: "a number for a string option", type: "ods_starred_query", attrs: query({}, { query_options: { priority: 5 } }), mentions: "priority" },
  { what: "a list for a map", type: "ods_notifier", attrs: notifier({ properties: { custom_webhook: { url: "https://h.example.com", headers: ["a"] } } }), mentions: "headers" },
  { what: "a number in a secret map", type: "ods_notifier", attrs: notifier({ properties: { custom_webhook: { url: "https://h.example.com", secret_headers: { Authorization: 7 } } } }), mentions: "secret_headers" },
  { what: "a string for a region flag", type: "ods_notifier", attrs: notifier({ properties: { incident_a: { api_key: SECRET, is_eu: "no" } } }), mentions: "is_eu" },
  { what: "an object for a string", type: "ods_user", attrs: user({ role: { id: "x" } }), mentions: "role" },
  { what: "a string for the properties object", type: "ods_notifier", attrs: notifier({ properties: "webhook" }), mentions: "properties" },
  // unknown attributes
  { what: "an unknown top-level attribute", type: "ods_notifier", attrs: notifier({ colour: "red" }), mentions: "colour" },
  { what: "an unknown channel", type: "ods_notifier", attrs: notifier({ properties: { pager: { url: "https://x.example.com" } } }), mentions: "pager" },
  { what: "an unknown nested attribute", type: "ods_notifier", attrs: notifier({ properties: { webhook: { url: "https://x.example.com", method: "POST" } } }), mentions: "method" },
  { what: "an unknown token attribute", type: "ods_api_token", attrs: token({ secret: "abc" }), mentions: "secret" },
  { what: "an unknown capability area", type: "ods_role", attrs: role({ org_capabilities: { teleport: ["read"] } }), mentions: "teleport" },
  { what: "an unknown query attribute", type: "ods_starred_query", attrs: query({}, { sql: "select 1" }), mentions: "sql" },
  { what: "a computed attribute set", type: "ods_notifier", attrs: notifier({ created_by: "me" }), mentions: "created_by" },
  // missing required attributes
  { what: "no name", type: "ods_notifier", attrs: { properties: hook }, mentions: "name" },
  { what: "no properties", type: "ods_notifier", attrs: { name: "no-props" }, mentions: "properties" },
  { what: "no channel", type: "ods_notifier", attrs: notifier({ properties: {} }), mentions: "properties" },
  { what: "no chat B token", type: "ods_notifier", attrs: notifier({ properties: { chat_b: { chat_b_channel: "#a" } } }), mentions: "chat_b_token" },
  { what: "no expression", type: "ods_virtual_field", attrs: { dataset: "logs", name: "vf" }, mentions: "expression" },
  { what: "no user name", type: "ods_user", attrs: { email: "x@example.com", role: "user" }, mentions: "name" },
  // broken references
  { what: "a reference to an undeclared resource", type: "ods_virtual_field", attrs: vfield({ dataset: "${ods_dataset.nope.name}" }), mentions: "ods_dataset.nope" },
  { what: "a reference to an unknown attribute", type: "ods_virtual_field", attrs: vfield({ dataset: "${ods_dataset.logs.colour}" }), mentions: "colour", extra: { ods_dataset: { logs: { name: "logs" } } } },
  { what: "a reference to an unknown type", type: "ods_role", attrs: role({ description: "${ods_dashboard.main.id}" }), mentions: "ods_dashboard" },
  { what: "depends_on an undeclared resource", type: "ods_role", attrs: role({ depends_on: ["ods_role.ghost"] }), mentions: "ods_role.ghost" },
  { what: "a reference cycle", type: "ods_role", attrs: role({ description: "${ods_role.other.name}" }), mentions: "cycle", extra: { ods_role: { other: { name: "other", description: "${ods_role.bad.name}" } } } },
  { what: "an unknown resource type", type: "ods_dashboard", attrs: { name: "d" }, mentions: "ods_dashboard" },
  // bad e-mails
  { what: "an e-mail without @", type: "ods_notifier", attrs: notifier({ properties: { email: { emails: ["not-an-address"] } } }), mentions: "emails[0]" },
  { what: "an e-mail without a domain dot", type: "ods_notifier", attrs: notifier({ properties: { email: { emails: ["ok@example.com", "a@b"] } } }), mentions: "emails[1]" },
  { what: "an e-mail with a space", type: "ods_user", attrs: user({ email: "bob smith@example.com" }), mentions: "email" },
  { what: "an empty e-mail", type: "ods_notifier", attrs: notifier({ properties: { email: { emails: [""] } } }), mentions: "emails[0]" },
  // bad URLs
  { what: "a URL that is no URL", type: "ods_notifier", attrs: notifier({ properties: { webhook: { url: "hooks.example.com/x" } } }), mentions: "properties.webhook.url" },
  { what: "an ftp URL", type: "ods_notifier", attrs: notifier({ properties: { chat_c: { chat_c_url: "ftp://files.example.com" } } }), mentions: "chat_c_url" },
  { what: "an empty URL", type: "ods_notifier", attrs: notifier({ properties: { chat_a: { chat_a_url: "" } } }), mentions: "chat_a_url" },
  { what: "a javascript: URL", type: "ods_notifier", attrs: notifier({ properties: { custom_webhook: { url: "javascript:alert(1)" } } }), mentions: "url" },
  // bad timestamps and durations
  { what: "a timestamp in words", type: "ods_notifier", attrs: notifier({ disabled_until: "tomorrow" }), mentions: "disabled_until" },
  { what: "a timestamp without a zone", type: "ods_api_token", attrs: token({ expires_at: "2027-01-01T00:00:00" }), mentions: "expires_at" },
  { what: "month 13", type: "ods_api_token", attrs: token({ expires_at: "2027-13-01T00:00:00Z" }), mentions: "expires_at" },
  { what: "a bad grace period", type: "ods_api_token", attrs: token({ rotation_grace_period: "forever" }), mentions: "rotation_grace_period" },
  // bad capability actions
  { what: "an org action that does not exist", type: "ods_role", attrs: role({ org_capabilities: { datasets: ["write"] } }), mentions: "org_capabilities.datasets" },
  { what: "an action the area does not allow", type: "ods_api_token", attrs: token({ org_capabilities: { audit_log: ["create"] } }), mentions: "audit_log" },
  { what: "a dataset action that does not exist", type: "ods_role", attrs: role({ dataset_capabilities: { logs: { query: ["delete"] } } }), mentions: "query" },
  { what: "a view action that does not exist", type: "ods_api_token", attrs: token({ view_capabilities: { v: { share: ["update"] } } }), mentions: "share" },
  { what: "a starred query kind that does not exist", type: "ods_starred_query", attrs: query({ kind: "sql" }), mentions: "kind" },
  { what: "a limit below 1", type: "ods_starred_query", attrs: query({}, { default_limit: 0 }), mentions: "default_limit" },
  // oversized strings
  { what: "an oversized name", type: "ods_notifier", attrs: notifier({ name: long }), mentions: "name" },
  { what: "an oversized description", type: "ods_role", attrs: role({ description: long }), mentions: "description" },
  { what: "an oversized expression", type: "ods_virtual_field", attrs: vfield({ expression: long }), mentions: "expression" },
  // unicode
  { what: "a dataset name with accents", type: "ods_dataset", attrs: { name: "données" }, mentions: "name" },
  { what: "a dataset name in CJK", type: "ods_dataset", attrs: { name: "日志" }, mentions: "name" },
  { what: "a field's dataset with an emoji", type: "ods_virtual_field", attrs: vfield({ dataset: "logs-🔥" }), mentions: "dataset" },
  // empty strings
  { what: "an empty name", type: "ods_role", attrs: role({ name: "" }), mentions: "name" },
  { what: "a blank name", type: "ods_api_token", attrs: token({ name: "   " }), mentions: "name" },
  { what: "an empty query", type: "ods_starred_query", attrs: query({}, { apl: "" }), mentions: "apl" },
  { what: "an empty role", type: "ods_user", attrs: user({ role: "" }), mentions: "role" },
  // monitors
  { what: "a view without a query", type: "ods_view", attrs: view({ apl_query: null }), mentions: "apl_query" },
  { what: "a dashboard layout item naming no chart", type: "ods_dashboard", attrs: dashboard({ layout: [{ i: "ghost", x: 0, y: 0, w: 6, h: 4 }] }), mentions: 'layout item "ghost"' },
  { what: "a dashboard chart wider than the grid", type: "ods_dashboard", attrs: dashboard({ layout: [{ i: "c1", x: 0, y: 0, w: 13, h: 4 }] }), mentions: "width" },
  { what: "a dashboard chart type that does not exist", type: "ods_dashboard", attrs: dashboard({ charts: [{ id: "c1", type: "Gauge" }] }), mentions: 'chart "c1"' },
  { what: "a dashboard refresh time the service does not offer", type: "ods_dashboard", attrs: dashboard({ refreshTime: 30 }), mentions: "refreshTime" },
  { what: "a dashboard uid with spaces", type: "ods_dashboard", attrs: { uid: "bad dash", dashboard: JSON.stringify(goodDocument) }, mentions: "uid" },
  { what: "a monitor operator that does not exist", type: "ods_monitor", attrs: monitor({ operator: "GreaterThan" }), mentions: "operator" },
  { what: "a monitor that never runs", type: "ods_monitor", attrs: monitor({ interval_minutes: 0 }), mentions: "interval_minutes" },
  { what: "a match monitor that aggregates", type: "ods_monitor", attrs: monitor({ type: "MatchEvent", operator: null, threshold: null }), mentions: "summarize" },
  { what: "a monitor notifier that does not exist", type: "ods_monitor", attrs: monitor({ notifier_ids: ["ntf_missing"] }), mentions: "notifier_ids" },
  { what: "an empty chat channel", type: "ods_notifier", attrs: notifier({ properties: { chat_b: { chat_b_channel: "", chat_b_token: SECRET } } }), mentions: "chat_b_channel" },
];

// The bounded subset in `npm test`: every fourth case (each is one CLI run).
const RUN = FULL ? CASES : CASES.filter((_, i) => i % 4 === 0);

describe("bad input is stopped before any write", () => {
  it(`has at least 50 cases (${CASES.length}), ${RUN.length} run in this mode`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(50);
  });

  it.each(RUN.map((c, i) => [i, c.what, c] as const))("case %i: %s", async (_i, _what, c) => {
    const dir = tempDir();
    const name = "bad";
    writeStack(dir, { resource: { ...c.extra, [c.type]: { ...(c.extra?.[c.type] ?? {}), [name]: c.attrs } } });
    emu.resetRequests();
    counts.trials++;
    const r = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken } });
    outputs.push(r.stdout, r.stderr);
    const problems: string[] = [];
    if (r.code !== 1) problems.push(`exit ${r.code}, expected 1`);
    if (!r.stderr.includes(`[main/${name}]`) && !r.stderr.includes(`${c.type}.${name}`)) problems.push("the error names neither the construct path nor the address");
    if (!r.stderr.includes(c.mentions)) problems.push(`the error does not mention "${c.mentions}"`);
    if (/^\s+at .+\(.*:\d+:\d+\)$/m.test(r.stderr)) problems.push("the error carries a stack trace");
    const writes = writesIn(emu);
    if (writes.length) problems.push(`writes reached the service: ${writes.join(", ")}`);
    if (problems.length) counts.failures.push(`bad input "${c.what}": ${problems.join("; ")}; stderr: ${r.stderr.slice(0, 300)}`);
    expect(problems, r.stderr.slice(0, 2000)).toEqual([]);
  });
});

describe("a state file the engine cannot use is left untouched", () => {
  const STATES: [string, (valid: string) => string][] = [
    ["truncated", (valid) => valid.slice(0, Math.floor(valid.length / 2))],
    ["corrupt (not JSON)", () => "\u0000\u0001garbage{{{"],
    ["not a state (JSON without a version)", () => JSON.stringify({ hello: "world" })],
    ["from a newer format version", (valid) => JSON.stringify({ ...(JSON.parse(valid) as object), version: 99 })],
    // (An empty file is no state, as for Terraform, which creates one empty when it locks.)
    ["from an older Terraform format version", (valid) => JSON.stringify({ ...(JSON.parse(valid) as object), version: 3 })],
  ];

  it.each(STATES)("%s: a clear error, no write, the file byte for byte the same", async (_label, damage) => {
    const dir = tempDir();
    const env = { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken };
    writeStack(dir, { resource: { ods_role: { keep: { name: `state-role-${path.basename(dir)}` } }, ods_notifier: { n: { name: `state-n-${path.basename(dir)}`, properties: { chat_b: { chat_b_channel: "#a", chat_b_token: SECRET } } } } } });
    const first = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env });
    outputs.push(first.stdout, first.stderr);
    expect(first.code, first.stderr).toBe(0);
    const stateFile = path.join(dir, "state.json");
    fs.writeFileSync(stateFile, damage(fs.readFileSync(stateFile, "utf8")));
    const before = fs.readFileSync(stateFile);
    for (const args of [["plan"], ["apply", "--auto-approve"]]) {
      emu.resetRequests();
      counts.trials++;
      const r = await runOds([...args, ...stackFlags(dir)], { env });
      outputs.push(r.stdout, r.stderr);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(stateFile);
      expect(r.stderr).toMatch(/untouched|newer|not valid JSON|does not look like|run a current terraform/);
      expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      expect(writesIn(emu)).toEqual([]);
      expect(fs.readFileSync(stateFile).equals(before)).toBe(true);
    }
    expect(leakedSecrets(outputs, [SECRET, emu.adminToken])).toEqual([]);
  });
});
