// The state commands and backends as a user meets them, without terraform: an http
// state server's lock stops `ods apply` at once, naming the holder and how to release
// it; `ods state pull/push/unlock`; an unsupported backend is a clear error.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, tempDir } from "../helpers/ods-cli";
import { stateProject, type StateProject } from "./state-project";
import { startHttpStateServer, type HttpStateServer } from "../../bench/http-state-server";

let emu: EmulatorHandle;
let server: HttpStateServer;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  server = await startHttpStateServer();
});
afterAll(async () => {
  await emu.close();
  await server.close();
  removeTempDirs();
});

/** A project whose stack declares `backend` (or cdktf's default local one). */
const project = (prefix: string, backend?: Record<string, unknown>): StateProject => stateProject(emu, prefix, backend);

describe("the http backend", () => {
  it("stores the state on the server; a lock left there stops ods at once, naming the holder; ods state unlock releases it", async () => {
    const p = project("http-a", { http: server.backend });
    const first = await p.ods(["apply", "--auto-approve"]);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(server.state() ?? "{}").resources[0].type).toBe("ods_role");
    expect(server.lock()).toBeUndefined();
    // The run's local journal of the state (issue 47) is taken into the server's copy and removed.
    const journals = path.join(p.dir, ".ods", "state-journal");
    expect(fs.existsSync(journals) ? fs.readdirSync(journals) : []).toEqual([]);

    // What a crashed `terraform apply` leaves on the server.
    const stale = { ID: "7d2e0f8c-stale", Operation: "OperationTypeApply", Info: "", Who: "ci@runner-7", Version: "1.11.4", Created: "2026-11-23T10:00:00Z", Path: "" };
    await fetch(server.backend.lock_address, {
      method: "LOCK",
      headers: { authorization: `Basic ${Buffer.from("ci:s3cret-pass").toString("base64")}` },
      body: JSON.stringify(stale),
    });
    emu.resetRequests();
    const blocked = await p.ods(["apply", "--auto-approve"]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain("lock ID 7d2e0f8c-stale, held by ci@runner-7 (OperationTypeApply, terraform 1.11.4) since 2026-11-23T10:00:00Z");
    expect(blocked.stderr).toContain("ods state unlock 7d2e0f8c-stale");
    expect(emu.requests().filter((q) => q.method !== "GET")).toEqual([]);

    const unlocked = await p.ods(["state", "unlock", "7d2e0f8c-stale"]);
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(server.lock()).toBeUndefined();
    const plan = await p.ods(["plan", "--detailed-exitcode"]);
    expect(plan.code, plan.stderr).toBe(0);
  });

  it("names the server, never the password, when the credentials are refused", async () => {
    const p = project("http-b", { http: { ...server.backend, password: "wrong-password-123" } });
    const r = await p.ods(["plan"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/http state at http:\/\/127\.0\.0\.1:\d+\/state refused the credentials \(401/);
    expect(r.stdout + r.stderr).not.toContain("wrong-password-123");
  });
});

describe("the state commands", () => {
  it("pull prints the stored state; push refuses another lineage or an older serial without --force", async () => {
    const p = project("cmd-a");
    expect((await p.ods(["apply", "--auto-approve"])).code).toBe(0);
    // cdktf's default: terraform.<stack>.tfstate in the project root, mode 0600.
    const file = path.join(p.dir, "terraform.main.tfstate");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const pulled = await p.ods(["state", "pull"]);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toBe(fs.readFileSync(file, "utf8"));
    const doc = JSON.parse(pulled.stdout);

    const other = path.join(p.dir, "other.tfstate");
    fs.writeFileSync(other, JSON.stringify({ ...doc, lineage: "another-lineage", serial: doc.serial + 5 }));
    const refused = await p.ods(["state", "push", other]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/lineage .* different states. Pass --force/);
    fs.writeFileSync(other, JSON.stringify({ ...doc, serial: doc.serial - 1 }));
    expect((await p.ods(["state", "push", other])).stderr).toMatch(/older than the stored state's/);

    fs.writeFileSync(other, JSON.stringify({ ...doc, serial: doc.serial + 1, resources: [] }, null, 2));
    const pushed = await p.ods(["state", "push", other]);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toBe(fs.readFileSync(other, "utf8"));
    // Nothing managed any more: the next plan adopts the role by name.
    expect((await p.ods(["plan"])).stdout).toContain("<= ods_role.r");
  });

  it("state mv moves an object to a new address keeping its id; --dry-run changes nothing; the renamed stack then plans no changes", async () => {
    const p = project("cmd-mv");
    expect((await p.ods(["apply", "--auto-approve"])).code).toBe(0);
    const file = path.join(p.dir, "terraform.main.tfstate");
    const id = JSON.parse(fs.readFileSync(file, "utf8")).resources[0].instances[0].attributes.id as string;
    const before = fs.readFileSync(file, "utf8");

    const dry = await p.ods(["state", "mv", "--dry-run", "ods_role.r", "ods_role.readers"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`Would move ods_role.r to ods_role.readers (id ${id}); nothing was changed.`);
    expect(fs.readFileSync(file, "utf8")).toBe(before);

    for (const [args, message] of [
      [["ods_role.nope", "ods_role.x"], "ods_role.nope is not in the state"],
      [["ods_role.r", "ods_user.r"], "its new address must be of that type"],
      [["ods_role.r", "readers"], 'the destination "readers" is not a resource address'],
    ] as const) {
      const refused = await p.ods(["state", "mv", ...args]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(message);
    }
    expect(fs.readFileSync(file, "utf8")).toBe(before);

    emu.resetRequests();
    const moved = await p.ods(["state", "mv", "ods_role.r", "ods_role.readers"]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain(`Moved ods_role.r to ods_role.readers (id ${id})`);
    expect(emu.requests()).toEqual([]);
    const doc = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(doc.resources.map((r: { type: string; name: string; instances: { attributes: { id: string } }[] }) => [`${r.type}.${r.name}`, r.instances[0].attributes.id])).toEqual([["ods_role.readers", id]]);

    // The code now names it ods_role.readers: nothing to do, with move detection off too.
    const stack = path.join(p.dir, "cdktf.out", "stacks", "main", "cdk.tf.json");
    const json = JSON.parse(fs.readFileSync(stack, "utf8"));
    json.resource.ods_role = { readers: json.resource.ods_role.r };
    fs.writeFileSync(stack, JSON.stringify(json));
    const plan = await p.ods(["plan", "--detailed-exitcode", "--no-move-detection"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("refuses a backend it does not support, naming it and the Terraform path, with no write", async () => {
    const p = project("cmd-b", { s3: { bucket: "b", key: "k" } });
    emu.resetRequests();
    const r = await p.ods(["apply", "--auto-approve"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the stack declares the "s3" backend, which ods does not support .*cdktf deploy/);
    expect(emu.requests().filter((q) => q.method !== "GET")).toEqual([]);
  });
});
