// The sandbox's stand-ins in a worker thread of `npm start`'s process (scripts/start.ts). Loading their modules
// (oidc-provider, the DSTU code, the mail parser) and starting them overlaps with the main thread loading the
// server's bundle, and the CRLs the Diia stand-in signs while the service starts are signed on the other core:
// a second start's two busiest threads instead of one (issue 62). The main thread keeps the service and the demo
// site; this thread answers the stand-ins' ports until it is told to close.
import module from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import type { SandboxOptions } from "../sandbox/src/index.ts";

/** What the thread tells scripts/start.ts. */
export type SandboxThreadMessage =
  | { started: { env: Record<string, string>; standIns: { name: string; url: string }[] } }
  | { failed: unknown }
  | { closed: true };

module.enableCompileCache();
const parent = parentPort;
if (parent) {
  const tell = (message: SandboxThreadMessage) => parent.postMessage(message);
  try {
    const { startSandbox } = await import("../sandbox/src/index.ts");
    const sandbox = await startSandbox(workerData as SandboxOptions);
    parent.once("message", () => {
      sandbox.close().finally(() => tell({ closed: true }));
    });
    tell({ started: { env: sandbox.env, standIns: sandbox.standIns.map(({ name, url }) => ({ name, url })) } });
  } catch (error) {
    tell({ failed: error });
  }
}
