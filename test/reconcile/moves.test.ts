// Renaming constructs in `ods plan/apply`: moved blocks (synthesized by the real cdktf
// constructs' moveTo, moveToId and moveFromId) and moves found by natural key keep every
// object with its id and a token with its secret; what cannot become a move is refused
// before anything is written. Against the emulator over HTTP, in process.
import * as fs from "node:fs";
import * as path from "node:path";
import { Testing, TerraformStack } from "cdktf";
import { describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { apiToken, notifier, provider, role, user } from "../../src";
import { applyPlan } from "../../src/reconcile/apply";
import { LocalBackend } from "../../src/reconcile/backends";
import { PlanError, makePlan, type Plan } from "../../src/reconcile/plan";
import { planJson, renderPlan } from "../../src/reconcile/render";
import { loadStack } from "../../src/reconcile/stack";
import { StateStore, type StateFile } from "../../src/reconcile/state";
import { tempDir } from "../emulator/helpers";
import { useRig } from "../lifecycle/helpers";

const use = useRig();

type Layout = "before" | "moveTo" | "moveToId" | "moveFromId" | "renamed";

/**
 * One stack as a user writes it: a user, a role, a token and a notifier. `before` under
 * their first construct ids; the other layouts under new ids, the move said in one of
 * cdktf's three ways, or not at all (`renamed`).
 */
function synth(layout: Layout, prefix: string): Record<string, unknown> {
  const app = Testing.app();
  const stack = new TerraformStack(app, "main");
  new provider.OdsProvider(stack, "ods", {});
  const config = {
    user: { email: `${prefix}@example.com`, name: "Ada", role: "user" },
    role: { name: `${prefix}-role`, orgCapabilities: { datasets: ["read"] } },
    token: { name: `${prefix}-token`, description: "ci" },
    notifier: { name: `${prefix}-pager`, properties: { email: { emails: ["oncall@example.com"] } } },
  };
  if (layout === "before") {
    new user.User(stack, "alice", config.user);
    new role.Role(stack, "readers", config.role);
    new apiToken.ApiToken(stack, "ci", config.token);
    new notifier.Notifier(stack, "pager", config.notifier);
  } else if (layout === "renamed") {
    new user.User(stack, "ada", config.user);
    new role.Role(stack, "read_only", config.role);
    new apiToken.ApiToken(stack, "ci_token", config.token);
    new notifier.Notifier(stack, "oncall", config.notifier);
  } else if (layout === "moveTo") {
    // The old construct stays in the code, marked as moved to the new one's target.
    const targets = [
      [new user.User(stack, "alice", config.user), new user.User(stack, "ada", config.user)],
      [new role.Role(stack, "readers", config.role), new role.Role(stack, "read_only", config.role)],
      [new apiToken.ApiToken(stack, "ci", config.token), new apiToken.ApiToken(stack, "ci_token", config.token)],
      [new notifier.Notifier(stack, "pager", config.notifier), new notifier.Notifier(stack, "oncall", config.notifier)],
    ] as const;
    targets.forEach(([from, to], i) => {
      to.addMoveTarget(`target-${i}`);
      from.moveTo(`target-${i}`);
    });
  } else if (layout === "moveToId") {
    new user.User(stack, "alice", config.user).moveToId("ods_user.ada");
    new user.User(stack, "ada", config.user);
    new role.Role(stack, "readers", config.role).moveToId("ods_role.read_only");
    new role.Role(stack, "read_only", config.role);
    new apiToken.ApiToken(stack, "ci", config.token).moveToId("ods_api_token.ci_token");
    new apiToken.ApiToken(stack, "ci_token", config.token);
    new notifier.Notifier(stack, "pager", config.notifier).moveToId("ods_notifier.oncall");
    new notifier.Notifier(stack, "oncall", config.notifier);
  } else {
    new user.User(stack, "ada", config.user).moveFromId("ods_user.alice");
    new role.Role(stack, "read_only", config.role).moveFromId("ods_role.readers");
    new apiToken.ApiToken(stack, "ci_token", config.token).moveFromId("ods_api_token.ci");
    new notifier.Notifier(stack, "oncall", config.notifier).moveFromId("ods_notifier.pager");
  }
  return JSON.parse(Testing.synth(stack)) as Record<string, unknown>;
}

const NEW_ADDRESSES = ["ods_user.ada", "ods_role.read_only", "ods_api_token.ci_token", "ods_notifier.oncall"];
const OLD_ADDRESSES = ["ods_user.alice", "ods_role.readers", "ods_api_token.ci", "ods_notifier.pager"];

class Workspace {
  readonly dir = tempDir("ods-moves-");
  readonly store = new StateStore(new LocalBackend(path.join(this.dir, "state.json")));
  constructor(readonly client: OdsClient) {}

  private write(json: unknown): string {
    const file = path.join(this.dir, "cdktf.out", "stacks", "main", "cdk.tf.json");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(json));
    return file;
  }

  async plan(json: unknown, moveDetection?: boolean): Promise<{ plan: Plan; state: StateFile; stack: ReturnType<typeof loadStack> }> {
    const stack = loadStack(this.write(json));
    const state = await this.store.read();
    return { plan: await makePlan({ client: this.client, stack, state, moveDetection }), state, stack };
  }

  async apply(json: unknown, moveDetection?: boolean) {
    const { plan, state, stack } = await this.plan(json, moveDetection);
    const summary = await applyPlan({ client: this.client, stack, state, persist: (s) => this.store.write(s), plan });
    return { plan, summary, state: await this.store.read() };
  }
}

function writes(): number {
  return use.rig.emu.requests().filter((r) => r.method !== "GET").length;
}

async function secretWorks(secret: string | undefined): Promise<boolean> {
  const as = new OdsClient({ url: use.rig.emu.url, token: secret ?? "none", maxRetries: 0 });
  try {
    await as.getCurrentUser();
    return true;
  } catch {
    return false;
  } finally {
    await as.close();
  }
}

describe("renaming constructs with ods apply", () => {
  for (const layout of ["moveTo", "moveToId", "moveFromId", "renamed"] as const) {
    it(`${layout}: every object keeps its id, the token its secret, and the next plan is empty`, async () => {
      const prefix = `mv-${layout.toLowerCase()}`;
      const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
      try {
        const ws = new Workspace(client);
        const first = await ws.apply(synth("before", prefix));
        expect(first.summary.failed).toBe(0);
        const ids = OLD_ADDRESSES.map((a) => first.state.resources[a].id);
        const secret = first.state.resources["ods_api_token.ci"].sensitive?.token;
        expect(await secretWorks(secret)).toBe(true);

        const before = writes();
        const { plan } = await ws.plan(synth(layout, prefix));
        const text = renderPlan(plan);
        const foundBy = layout === "renamed" ? "natural key" : "moved block";
        for (const [i, to] of NEW_ADDRESSES.entries()) {
          expect(text).toContain(`# ${OLD_ADDRESSES[i]} has moved to ${to} (id ${ids[i]})`);
          const change = plan.changes.find((c) => c.address === to);
          expect(change).toMatchObject({ action: "noop", previousAddress: OLD_ADDRESSES[i], movedBy: foundBy, id: ids[i] });
        }
        expect(text).toContain("0 to create, 0 to adopt, 0 to update, 0 to replace, 0 to rotate, 0 to delete, 0 to forget, 4 to move.");
        if (layout === "renamed") {
          expect(text).toContain("found by natural key: ods_user.alice manages the live object with email");
          expect(text).toContain('cdktf: call .moveFromId("ods_user.alice") on the construct');
          expect(text).toContain("from = ods_user.alice");
        }
        const json = planJson(plan) as { resource_changes: { address: string; previous_address?: string }[] };
        expect(json.resource_changes.filter((c) => c.previous_address).map((c) => [c.previous_address, c.address]).sort()).toEqual(
          OLD_ADDRESSES.map((a, i) => [a, NEW_ADDRESSES[i]]).sort(),
        );

        const moved = await ws.apply(synth(layout, prefix));
        expect(moved.summary).toMatchObject({ failed: 0, created: 0, deleted: 0, rotated: 0, replaced: 0, adopted: 0, moved: 4 });
        // Nothing was written to the service: a move is a change of the state alone.
        expect(writes()).toBe(before);
        expect(Object.keys(moved.state.resources).sort()).toEqual([...NEW_ADDRESSES].sort());
        expect(NEW_ADDRESSES.map((a) => moved.state.resources[a].id)).toEqual(ids);
        expect(moved.state.resources["ods_api_token.ci_token"].sensitive?.token).toBe(secret);
        expect(await secretWorks(secret)).toBe(true);

        const again = await ws.plan(synth(layout, prefix));
        expect(again.plan.changes.every((c) => c.action === "noop" && c.previousAddress === undefined)).toBe(true);
        expect(renderPlan(again.plan)).toContain("No changes.");
      } finally {
        await client.close();
      }
    });
  }

  it("--no-move-detection: a rename without moved blocks is refused before any write, naming the live id and both remedies", async () => {
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    try {
      const ws = new Workspace(client);
      const first = await ws.apply(synth("before", "mv-off"));
      const before = writes();
      const err = await ws.plan(synth("renamed", "mv-off"), false).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(PlanError);
      const message = (err as Error).message;
      expect(message).toContain(`ods_user.ada would create a ods_user with email ["mv-off@example.com"], while ods_user.alice (no longer declared) manages the live object ${first.state.resources["ods_user.alice"].id}`);
      expect(message).toContain('.moveFromId("ods_user.alice")');
      expect(message).toContain("moved { from = ods_user.alice to = ods_user.ada }");
      expect(message).toContain('"ods state mv --stack main ods_user.alice ods_user.ada"');
      expect(writes()).toBe(before);
    } finally {
      await client.close();
    }
  });

  it("a rename that also changes what cannot be updated in place is refused before any write", async () => {
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    try {
      const ws = new Workspace(client);
      const spec = (address: string, name: string) => ({ provider: { ods: [{}] }, resource: { ods_user: { [address]: { email: "mv-forced@example.com", name, role: "user" } } } });
      const first = await ws.apply(spec("alice", "Ada"));
      const before = writes();
      const err = await ws.plan(spec("ada", "Ada Lovelace")).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(PlanError);
      expect((err as Error).message).toContain(`manages the live object ${first.state.resources["ods_user.alice"].id}`);
      expect((err as Error).message).toContain("cannot become a move: name cannot be changed in place");
      expect(writes()).toBe(before);
      const live = (await use.rig.admin.listUsers()).filter((u) => u.email === "mv-forced@example.com");
      expect(live.map((u) => u.id)).toEqual([first.state.resources["ods_user.alice"].id]);
    } finally {
      await client.close();
    }
  });

  it("moved blocks as Terraform evaluates them: chains, a from not in state, a destination that exists", async () => {
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    try {
      const ws = new Workspace(client);
      const roleAt = (names: string[], moved: { from: string; to: string }[]) => ({
        provider: { ods: [{}] },
        resource: { ods_role: Object.fromEntries(names.map((n) => [n, { name: `mv-chain-${n === "c" || n === "b" ? "a" : n}` }])) },
        ...(moved.length > 0 ? { moved } : {}),
      });
      const first = await ws.apply(roleAt(["a", "other"], []));
      const id = first.state.resources["ods_role.a"].id;
      // a -> b -> c: the object at a ends at c; "ods_role.gone" is in no state: no-op.
      const chain = [{ from: "ods_role.a", to: "ods_role.b" }, { from: "ods_role.b", to: "ods_role.c" }, { from: "ods_role.gone", to: "ods_role.other" }];
      const moved = await ws.apply(roleAt(["c", "other"], chain));
      expect(moved.summary).toMatchObject({ failed: 0, created: 0, deleted: 0, moved: 1 });
      expect(moved.state.resources["ods_role.c"].id).toBe(id);
      expect(moved.state.resources["ods_role.other"].id).toBe(first.state.resources["ods_role.other"].id);

      // A move onto an address that holds an object is refused.
      const before = writes();
      const clash = await ws.plan(roleAt(["other"], [{ from: "ods_role.c", to: "ods_role.other" }])).then(() => undefined, (e: unknown) => e);
      expect(clash).toBeInstanceOf(PlanError);
      expect((clash as Error).message).toContain(`the moved block to ods_role.other is refused: ods_role.other already manages the object ${first.state.resources["ods_role.other"].id}`);
      // A from that is still declared is refused too.
      const twice = await ws.plan(roleAt(["c", "d", "other"], [{ from: "ods_role.c", to: "ods_role.d" }])).then(() => undefined, (e: unknown) => e);
      expect((twice as Error).message).toContain("names ods_role.c, which the configuration still declares");
      expect(writes()).toBe(before);
    } finally {
      await client.close();
    }
  });
});
