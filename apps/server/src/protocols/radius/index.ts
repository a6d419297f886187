import type { ProtocolRecord } from "../record.ts";
import { WifiDisconnects } from "./disconnect.ts";
import { radiusRoutes } from "./routes.ts";
import { wifiSignOut } from "./sign-out.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Disconnect-Requests for the Wi-Fi sessions of people whose access ended (protocols/radius/disconnect.ts). */
    wifiDisconnects: WifiDisconnects;
  }
}

/** FreeRADIUS's rest endpoint for eduroam (docs/eduroam.md), and Wi-Fi's disconnects when a person is disabled. */
export const radiusProtocol: ProtocolRecord = {
  name: "radius",
  async register(app) {
    await app.register(radiusRoutes);
    app.decorate(
      "wifiDisconnects",
      new WifiDisconnects({
        db: app.db,
        clock: app.clock,
        log: app.log,
        coa: app.config.wifi.coa,
        observeAudit: (event) => app.metrics?.observeAudit(event),
      }),
    );
    // Before the database closes (onClose): the answers still being awaited are recorded.
    app.addHook("preClose", () => app.wifiDisconnects.settled());
  },
  // A disabled or erased person's devices are disconnected; the sessions are read before erasure deletes them.
  signOut: (app) => wifiSignOut(app.wifiDisconnects),
};
