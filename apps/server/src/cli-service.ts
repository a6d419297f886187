// The service's sign-out participants for the operator CLI (surfaces/cli/sign-out.ts): the app built over the CLI's
// own database without listening, so `kpi-id user disable` tells OpenID Connect's back-channel logout URIs, the SAML
// SPs' SOAP endpoints and the CAS services as the console's "Disable" does. It lives beside app.ts because no layer
// may import the app; bin/kpi-id.js hands it to the CLI.
import { buildApp } from "./app.ts";
import type { DatabaseHandle } from "./platform/db/index.ts";
import { protocols } from "./protocols/registry.ts";
import type { ServiceSignOut } from "./surfaces/cli/sign-out.ts";

/** The CLI's database for the app: everything passes through, but closing is the CLI's own (it opened it). */
function keptOpen(database: DatabaseHandle): DatabaseHandle {
  return new Proxy(database, {
    get(target, key) {
      if (key === "close") return async () => {};
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export const serviceSignOut: ServiceSignOut = async (config, database, stderr) => {
  const app = await buildApp({
    config,
    database: keptOpen(database),
    // An application that could not be told is a warning on the operator's terminal, as in the service's log.
    logStream: { write: (line) => stderr(line.trimEnd()) },
    // Wi-Fi's devices are disconnected by the command itself, which waits for and prints the controllers' answers.
    protocols: protocols.map((protocol) => protocol.name).filter((name) => name !== "radius"),
  });
  await app.ready();
  return { signOut: app.signOut, close: () => app.close() };
};
