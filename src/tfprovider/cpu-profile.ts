// ODS_PROVIDER_CPU_PROF=DIR writes a V8 CPU profile of each provider process to
// DIR/provider-PID.cpuprofile when it exits (open it in Chrome DevTools). Node refuses
// --cpu-prof in NODE_OPTIONS, and Terraform starts the provider itself, so the entry
// point starts the profiler: imported first by main.ts, before gRPC and the resource
// model load, so that start-up is in the profile too.
import * as fs from "node:fs";
import * as path from "node:path";

const dir = process.env.ODS_PROVIDER_CPU_PROF;
if (dir) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only when profiling
  const inspector = require("node:inspector") as typeof import("node:inspector");
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 200 });
  session.post("Profiler.start");
  // A same-thread inspector session answers synchronously, as an exit handler must.
  process.on("exit", () => {
    session.post("Profiler.stop", (err, result) => {
      if (err) return;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `provider-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
