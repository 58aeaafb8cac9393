// The served provider's arguments and the reattach line Terraform reads.
import { describe, expect, it } from "vitest";
import { DEFAULT_IDLE_EXIT_S, parseServeArguments, reattachValue } from "../../src/tfprovider/serve-reattach";

describe("terraform-provider-ods serve arguments", () => {
  it("defaults to a 15-minute idle exit and takes a socket directory", () => {
    expect(parseServeArguments([])).toEqual({ idleExitS: DEFAULT_IDLE_EXIT_S });
    expect(DEFAULT_IDLE_EXIT_S).toBe(900);
    expect(parseServeArguments(["--idle-exit", "0", "--socket-dir", "/run/x"])).toEqual({ idleExitS: 0, socketDir: "/run/x" });
  });

  it("follows its parent only when asked (ods terraform serve -- COMMAND)", () => {
    expect(parseServeArguments(["--idle-exit", "0", "--exit-with-parent"])).toEqual({ idleExitS: 0, exitWithParent: true });
    expect(parseServeArguments(["--idle-exit", "0"])).not.toHaveProperty("exitWithParent");
  });

  it("names the argument and what it expected", () => {
    expect(parseServeArguments(["--idle-exit", "-3"])).toMatch(/--idle-exit: expected a whole number of seconds.*"-3"/);
    expect(parseServeArguments(["--idle-exit"])).toMatch(/unexpected argument "--idle-exit"; usage:/);
    expect(parseServeArguments(["--port", "1"])).toMatch(/unexpected argument "--port".*--exit-with-parent/);
  });
});

describe("the reattach line", () => {
  it("is go-plugin's ReattachConfig for our provider address, in test mode so Terraform leaves the process running", () => {
    expect(JSON.parse(reattachValue("/tmp/d/plugin.sock", 42))).toEqual({
      "registry.terraform.io/ods/ods": { Protocol: "grpc", ProtocolVersion: 6, Pid: 42, Test: true, Addr: { Network: "unix", String: "/tmp/d/plugin.sock" } },
    });
  });
});
