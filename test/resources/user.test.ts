// ods_user: the role is changed in place and shown as declared (a name stays a name);
// name and e-mail cannot change in place.
import { describe, expect, it } from "vitest";
import { decideAction, liveValues } from "../../src/lifecycle";
import { user } from "../../src/resources/user";
import { provider, tfApply, useRig } from "../lifecycle/helpers";

const use = useRig();

describe("ods_user", () => {
  it("shows a role read back as {id, name} in the form the user declared", () => {
    const live = { id: "u1", email: "a@example.com", name: "A", role: { id: "r-user", name: "user" } };
    expect(liveValues(user, live, { role: "user" }).role).toBe("user");
    expect(liveValues(user, live, { role: "r-user" }).role).toBe("r-user");
    expect(liveValues(user, live).role).toBe("r-user");
  });

  it("changes the role in place and replaces on a new e-mail", () => {
    const live = { id: "u1", email: "a@example.com", name: "A", role: "user" };
    expect(decideAction(user, { email: "a@example.com", name: "A", role: "admin" }, live, undefined, false, "s").action).toBe("update");
    expect(decideAction(user, { email: "b@example.com", name: "A", role: "user" }, live, undefined, false, "s").action).toBe("replace");
  });

  it("the provider keeps a role given by name, and updates it in place", async () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const state = await tfApply(p, "ods_user", null, { email: "role@example.com", name: "Role Person", role: "user" });
    expect(state?.role).toBe("user");
    const read = await p.readResource({ typeName: "ods_user", currentState: state! });
    expect(read.newState?.role).toBe("user");
    const updated = await tfApply(p, "ods_user", state, { email: "role@example.com", name: "Role Person", role: "read-only" });
    expect(updated?.id).toBe(state?.id);
    expect(((await use.rig.admin.getUser(String(state?.id))).role as { name?: string }).name).toBe("read-only");
  });
});
