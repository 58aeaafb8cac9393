import { describe, expect, it } from "vitest";
import { apiToken } from "../../src/resources/api-token";
import { dataset } from "../../src/resources/dataset";
import { notifier } from "../../src/resources/notifier";
import { role } from "../../src/resources/role";
import { starredQuery } from "../../src/resources/starred-query";
import { decideAction, secretFingerprints } from "../../src/reconcile/plan";
import type { ResourceState } from "../../src/reconcile/state";

const SALT = "salt";

function priorFor(kind: typeof notifier, declared: Record<string, unknown>, extra: Partial<ResourceState> = {}): ResourceState {
  return {
    typeName: kind.typeName,
    id: "x1",
    values: {},
    engineValues: {},
    secretFingerprints: secretFingerprints(kind, declared, SALT),
    dependsOn: [],
    ...extra,
  };
}

describe("decideAction: one action per resource from (declared, live, state)", () => {
  it("creates what does not live, and says when it vanished outside the stack", () => {
    expect(decideAction(role, { name: "a" }, undefined, undefined, false, SALT).action).toBe("create");
    const d = decideAction(role, { name: "a" }, undefined, priorFor(role, {}), false, SALT);
    expect(d.action).toBe("create");
    expect(d.reasons.join()).toMatch(/deleted outside/);
  });

  it("ignores server defaults, list order of set-like lists and timestamp forms", () => {
    const declared = {
      name: "oncall",
      disabled_until: "2027-01-01T02:00:00+02:00",
      properties: { email: { emails: ["b@example.com", "a@example.com"] } },
    };
    const live = {
      id: "x1",
      name: "oncall",
      disabled_until: "2027-01-01T00:00:00Z",
      properties: { email: { emails: ["a@example.com", "b@example.com"] }, webhook: null },
      created_at: "2026-01-01T00:00:00Z",
      created_by: "u",
    };
    expect(decideAction(notifier, declared, live, priorFor(notifier, declared), false, SALT)).toMatchObject({ action: "noop", changed: [] });
  });

  it("reads an unset optional attribute as none, as Terraform does; what the service fills in stays its own", () => {
    const live = { id: "r", name: "sre", description: "set by someone else", members: ["u9"], org_capabilities: { datasets: ["read", "delete"] } };
    expect(decideAction(role, { name: "sre" }, live, priorFor(role, {}), false, SALT)).toMatchObject({
      action: "update",
      changed: ["description", "members", "org_capabilities"],
    });
    expect(decideAction(role, { name: "sre" }, { id: "r", name: "sre", description: "", members: [] }, priorFor(role, {}), false, SALT).action).toBe("noop");
    // A starred query's who is filled in by the service (the caller): unset, it is not compared.
    const q = { dataset: "d", name: "q", kind: "apl", metadata: {}, query: { apl: "x" } };
    expect(decideAction(starredQuery, q, { ...q, id: "s", who: "usr_someone" }, priorFor(starredQuery, {}), false, SALT).action).toBe("noop");
  });

  it("plans an update when a write-only secret changed, though reads never show it", () => {
    const before = { name: "n", properties: { chat_b: { chat_b_channel: "#a", chat_b_token: "old" } } };
    const after = { name: "n", properties: { chat_b: { chat_b_channel: "#a", chat_b_token: "new" } } };
    const live = { id: "x1", name: "n", properties: { chat_b: { chat_b_channel: "#a", chat_b_token: "" } } };
    expect(decideAction(notifier, before, live, priorFor(notifier, before), false, SALT).action).toBe("noop");
    const d = decideAction(notifier, after, live, priorFor(notifier, before), false, SALT);
    expect(d.action).toBe("update");
    expect(d.reasons.join()).toMatch(/secret properties.chat_b.chat_b_token changed/);
    expect(JSON.stringify(d)).not.toContain("new");
  });

  it("rotates a token on change, replaces it when its name changes", () => {
    const live = { id: "t1", name: "ci", description: "old" };
    const prior = priorFor(apiToken, {}, { sensitive: { token: "s" } });
    expect(decideAction(apiToken, { name: "ci", description: "new" }, live, prior, false, SALT).action).toBe("rotate");
    expect(decideAction(apiToken, { name: "ci2", description: "old" }, live, prior, false, SALT).action).toBe("replace");
    const trig = decideAction(apiToken, { name: "ci", description: "old", rotation_trigger: "2" }, live, prior, false, SALT);
    expect(trig.action).toBe("rotate");
  });

  it("replaces a dataset whose name changed and adopts what it found by natural key", () => {
    const live = { id: "logs", name: "logs", description: "" };
    expect(decideAction(dataset, { name: "logs2" }, live, priorFor(dataset, {}), false, SALT).action).toBe("replace");
    expect(decideAction(dataset, { name: "logs" }, live, undefined, true, SALT)).toMatchObject({ action: "adopt", alsoUpdate: false });
    expect(decideAction(dataset, { name: "logs", description: "d" }, live, undefined, true, SALT)).toMatchObject({ action: "adopt", alsoUpdate: true });
  });
});
