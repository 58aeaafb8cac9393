// Which datasets a change names (what `ods apply --annotate` marks), and the CI run an
// annotation links to.
import { describe, expect, it } from "vitest";
import { ciRunUrl } from "../../src/cli/annotate";
import { datasetsInQuery, namedDatasets, resourceKind } from "../../src/resources";

describe("datasets named by a query", () => {
  it.each([
    ["['logs'] | where status >= 500", ["logs"]],
    ["[\"logs-v2\"] | count", ["logs-v2"]],
    ["logs | take 1", ["logs"]],
    ["['a'] | union ['b'] | join kind=inner (['c']) on id", ["a", "b", "c"]],
    ["print 1", []],
  ])("%s", (apl, expected) => {
    expect(datasetsInQuery(apl).sort()).toEqual(expected);
  });
});

describe("datasets named by an object", () => {
  it("reads dataset references, query attributes at any depth, and a dashboard's chart queries", () => {
    expect(namedDatasets(resourceKind("ods_virtual_field")!, { dataset: "api", name: "x", expression: "a" })).toEqual(["api"]);
    expect(namedDatasets(resourceKind("ods_starred_query")!, { dataset: "api", name: "q", query: { apl: "['api'] | union ['db']" } })).toEqual(["api", "db"]);
    expect(namedDatasets(resourceKind("ods_view")!, { name: "v", apl_query: "['web'] | take 1", datasets: ["api"] })).toEqual(["api", "web"]);
    const dashboard = JSON.stringify({ charts: [{ id: "a", type: "Table", query: { apl: "['db'] | take 1" } }, { id: "n", type: "Note", text: "['not-a-query']" }] });
    expect(namedDatasets(resourceKind("ods_dashboard")!, { uid: "d", dashboard })).toEqual(["db"]);
    expect(namedDatasets(resourceKind("ods_role")!, { name: "r", dataset_capabilities: { api: { query: ["read"] } } })).toEqual([]);
  });
});

describe("the CI run's URL", () => {
  it("comes from the CI system's own variables", () => {
    expect(ciRunUrl({ GITHUB_SERVER_URL: "https://github.com", GITHUB_REPOSITORY: "o/r", GITHUB_RUN_ID: "9" })).toBe("https://github.com/o/r/actions/runs/9");
    expect(ciRunUrl({ CI_JOB_URL: "https://gitlab.com/o/r/-/jobs/1" })).toBe("https://gitlab.com/o/r/-/jobs/1");
    expect(ciRunUrl({ BUILDKITE_BUILD_URL: "https://buildkite.com/o/p/builds/3" })).toBe("https://buildkite.com/o/p/builds/3");
    expect(ciRunUrl({ SYSTEM_COLLECTIONURI: "https://dev.azure.com/o/", SYSTEM_TEAMPROJECT: "p", BUILD_BUILDID: "5" })).toBe("https://dev.azure.com/o/p/_build/results?buildId=5");
  });

  it("is absent outside CI, and for a partial or non-http value", () => {
    expect(ciRunUrl({})).toBeUndefined();
    expect(ciRunUrl({ GITHUB_SERVER_URL: "https://github.com", GITHUB_RUN_ID: "9" })).toBeUndefined();
    expect(ciRunUrl({ BUILD_URL: "javascript:alert(1)" })).toBeUndefined();
  });
});

describe("monitor ids in a dashboard document", () => {
  it("are the references the document holds (export writes references there, compare sees through them)", () => {
    const attr = resourceKind("ods_dashboard")!.attributes.dashboard!;
    const text = JSON.stringify({ charts: [{ id: "m", type: "MonitorList", monitors: ["mon_1", "mon_2"] }, { id: "t", type: "Table", query: { apl: "x" } }] });
    expect(attr.referencesInText?.(text)).toEqual([
      { value: "mon_1", ref: { typeName: "ods_monitor", attribute: "id" } },
      { value: "mon_2", ref: { typeName: "ods_monitor", attribute: "id" } },
    ]);
    expect(namedDatasets(resourceKind("ods_monitor")!, { name: "m", type: "Threshold", apl_query: "['api'] | count" })).toEqual(["api"]);
  });
});
