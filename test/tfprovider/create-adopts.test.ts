// The provider's create never takes an object another address may manage. It adopts a
// live object with its natural key only where it holds evidence that it created that
// object itself and Terraform never stored it (a killed `terraform apply`): never a
// second object then. Any other such object is refused at plan, naming its id and the
// two ways on (a moved block, or an import), with nothing written.
import { describe, expect, it } from "vitest";
import { tempDir } from "../emulator/helpers";
import { provider, tfApply, tfState, useRig } from "../lifecycle/helpers";

const use = useRig();

function writes(): number {
  return use.rig.emu.requests().filter((r) => r.method !== "GET").length;
}

const notifier = (name: string, email: string) => ({ name, properties: { email: { emails: [email] } } });

describe("the provider's create and a live object with its natural key", () => {
  it("refuses at plan an object made outside Terraform, naming its id and both remedies, with zero writes", async () => {
    const orphan = await use.rig.admin.createNotifier({ name: "outside-n", properties: { email: { emails: ["a@example.com"] } } });
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken, { checkJournalDir: tempDir("ods-journal-") });
    const before = writes();
    const plan = await p.planResourceChange({ typeName: "ods_notifier", priorState: null, proposedNewState: tfState("ods_notifier", notifier("outside-n", "b@example.com")), config: tfState("ods_notifier", notifier("outside-n", "b@example.com")) });
    const detail = plan.diagnostics?.map((d) => `${d.summary} ${d.detail ?? ""}`).join("\n") ?? "";
    expect(detail).toContain(`Refusing to create ods_notifier: name ["outside-n"] exists as ${orphan.id}`);
    expect(detail).toContain('.moveFromId("<old address>")');
    expect(detail).toContain(`terraform import <this address> ${orphan.id}`);
    // terraform destroy's refresh plans the configuration: an object state rm'd but still declared ends here.
    expect(detail).toContain("If this is terraform destroy after the object was removed from the state (terraform state rm) while still declared, neither applies: run terraform destroy -refresh=false, or remove the declaration first.");
    expect(writes()).toBe(before);
    expect((await use.rig.admin.listNotifiers()).filter((n) => n.name === "outside-n").map((n) => n.id)).toEqual([orphan.id]);
  });

  it("after a killed apply, the next provider adopts the notifier its create made: one object, the same id", async () => {
    const journal = tempDir("ods-journal-");
    const killed = provider(use.rig.emu.url, use.rig.emu.adminToken, { checkJournalDir: journal });
    const made = await tfApply(killed, "ods_notifier", null, notifier("killed-n", "a@example.com"));
    // Terraform was killed before it stored the answer: no Shutdown, no state.
    const next = provider(use.rig.emu.url, use.rig.emu.adminToken, { checkJournalDir: journal });
    const state = await tfApply(next, "ods_notifier", null, notifier("killed-n", "b@example.com"));
    const live = (await use.rig.admin.listNotifiers()).filter((n) => n.name === "killed-n");
    expect(live.map((n) => n.id)).toEqual([made?.id]);
    expect(state?.id).toBe(made?.id);
    expect(live[0].properties.email?.emails).toEqual(["b@example.com"]);
  });

  it("after a killed apply, a token its create made is adopted by rotating it: one working token", async () => {
    const journal = tempDir("ods-journal-");
    const killed = provider(use.rig.emu.url, use.rig.emu.adminToken, { checkJournalDir: journal });
    await tfApply(killed, "ods_api_token", null, { name: "killed-t", description: "ci" });
    const next = provider(use.rig.emu.url, use.rig.emu.adminToken, { checkJournalDir: journal });
    const state = await tfApply(next, "ods_api_token", null, { name: "killed-t", description: "ci" });
    const current = (await use.rig.admin.listTokens()).filter((t) => t.name === "killed-t" && !t.expiresAt);
    expect(current.map((t) => t.id)).toEqual([state?.id]);
    expect(typeof state?.token).toBe("string");
  });

  it("once Terraform ended the provider with Shutdown, it holds the object: a second address with its key is refused at plan", async () => {
    const journal = tempDir("ods-journal-");
    const first = provider(use.rig.emu.url, use.rig.emu.adminToken, { checkJournalDir: journal });
    const made = await tfApply(first, "ods_user", null, { email: "renamed@example.com", name: "Ada", role: "user" });
    await first.close({ graceful: true });
    // A rename without a moved block: the new address plans a create, in a new process.
    const next = provider(use.rig.emu.url, use.rig.emu.adminToken, { checkJournalDir: journal });
    const before = writes();
    const err = await tfApply(next, "ods_user", null, { email: "renamed@example.com", name: "Ada", role: "user" }).then(() => undefined, (e: unknown) => e);
    expect(String(err)).toContain(`exists as ${made?.id}`);
    expect(String(err)).toContain("a moved block with from = <old address> and to = <this address>");
    expect(writes()).toBe(before);
    expect((await use.rig.admin.listUsers()).filter((u) => u.email === "renamed@example.com").map((u) => u.id)).toEqual([made?.id]);
  });

  it("never takes an object it saw in Terraform's state, whatever it created", async () => {
    const journal = tempDir("ods-journal-");
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken, { checkJournalDir: journal });
    const first = await tfApply(p, "ods_role", null, { name: "held-role" });
    // The provider saw it in Terraform's state (a refresh): it is managed.
    await p.readResource({ typeName: "ods_role", currentState: first ?? tfState("ods_role", {}) });
    const second = await tfApply(p, "ods_role", null, { name: "held-role" }).then(() => undefined, (e: unknown) => e);
    expect(String(second)).toMatch(/Refusing to create ods_role.*another resource of this configuration manages it/s);
    // Seen in a state is written down: the next process refuses it too.
    const next = provider(use.rig.emu.url, use.rig.emu.adminToken, { checkJournalDir: journal });
    const third = await tfApply(next, "ods_role", null, { name: "held-role" }).then(() => undefined, (e: unknown) => e);
    expect(String(third)).toContain(`exists as ${first?.id}`);
    expect((await use.rig.admin.listRoles()).filter((r) => r.name === "held-role")).toHaveLength(1);
  });
});
