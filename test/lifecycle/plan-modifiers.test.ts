// The named per-attribute plan rules, one at a time, and the values they plan together.
import { describe, expect, it } from "vitest";
import {
  DefaultWhenUnset,
  RequiresReplace,
  UNKNOWN,
  UnknownWhenUnsetAndChanging,
  UseStateForUnknown,
  issuesNewObject,
  plannedValues,
} from "../../src/lifecycle";
import { bool, str } from "../../src/resources";
import { apiToken } from "../../src/resources/api-token";
import { starredQuery } from "../../src/resources/starred-query";
import { user } from "../../src/resources/user";

const base = { prior: undefined, objectIsNew: false, anyChange: false, configured: undefined };

describe("plan modifiers", () => {
  it("DefaultWhenUnset plans the default only where nothing is declared", () => {
    const attr = bool("x", { optional: true, default: false });
    expect(DefaultWhenUnset.appliesTo(attr, null, null)).toBe(true);
    expect(DefaultWhenUnset.appliesTo(attr, true, true)).toBe(false);
    // Terraform carries an optional computed value over from state when the configuration
    // drops it: the configuration decides, so the default is planned all the same.
    expect(DefaultWhenUnset.appliesTo(attr, true, null)).toBe(true);
    expect(DefaultWhenUnset.modify({ ...base, attr, planned: null })).toBe(false);
    expect(DefaultWhenUnset.appliesTo(str("y", { optional: true }), null, null)).toBe(false);
  });

  it("UseStateForUnknown keeps a computed value unless the object is issued anew", () => {
    const attr = str("id", { computed: true });
    expect(UseStateForUnknown.appliesTo(attr, null, null)).toBe(true);
    expect(UseStateForUnknown.appliesTo(str("n", { required: true }), null, null)).toBe(false);
    expect(UseStateForUnknown.modify({ ...base, attr, planned: null, prior: "t1" })).toBe("t1");
    expect(UseStateForUnknown.modify({ ...base, attr, planned: null, prior: "t1", objectIsNew: true })).toBe(UNKNOWN);
    expect(UseStateForUnknown.modify({ ...base, attr, planned: null })).toBe(UNKNOWN);
  });

  it("UnknownWhenUnsetAndChanging leaves an unset optional computed value to the service only when it can change", () => {
    const attr = str("who", { optional: true, computed: true });
    expect(UnknownWhenUnsetAndChanging.appliesTo(attr, "u1", null)).toBe(true);
    expect(UnknownWhenUnsetAndChanging.appliesTo(attr, "u1", "u1")).toBe(false);
    expect(UnknownWhenUnsetAndChanging.modify({ ...base, attr, planned: "u1", prior: "u1", anyChange: true })).toBe("u1");
    expect(UnknownWhenUnsetAndChanging.modify({ ...base, attr, planned: null, prior: null, anyChange: true })).toBe(UNKNOWN);
    expect(UnknownWhenUnsetAndChanging.modify({ ...base, attr, planned: "u1", prior: "u1", objectIsNew: true })).toBe(UNKNOWN);
  });

  it("RequiresReplace picks the changed attributes that cannot change in place", () => {
    expect(RequiresReplace.among(user, ["role", "email"])).toEqual(["email"]);
    expect(RequiresReplace.among(user, ["role"])).toEqual([]);
  });

  it("a rotating kind issues a new object for any change the service sees or its trigger, not for engine settings alone", () => {
    expect(issuesNewObject(apiToken, ["description"])).toBe(true);
    expect(issuesNewObject(apiToken, ["rotation_trigger"])).toBe(true);
    expect(issuesNewObject(apiToken, ["rotation_grace_period"])).toBe(false);
    expect(issuesNewObject(starredQuery, ["name"])).toBe(false);
    expect(issuesNewObject(starredQuery, ["dataset"])).toBe(true);
  });

  it("ods leaves undeclared optional computed attributes out; Terraform plans every attribute", () => {
    const declared = { dataset: "logs", name: "q", query: { apl: "x" } };
    const ods = plannedValues(starredQuery, { declared, prior: undefined, objectIsNew: true, anyChange: true, everyAttribute: false });
    expect(ods).toMatchObject({ id: UNKNOWN, kind: "apl", metadata: {} });
    expect("who" in ods).toBe(false);
    const tf = plannedValues(starredQuery, { declared: { ...declared, who: null }, prior: undefined, objectIsNew: true, anyChange: true, everyAttribute: true });
    expect(tf.who).toBe(UNKNOWN);
  });
});
