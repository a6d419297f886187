import type { ProtocolRecord } from "../record.ts";
import { scimRoutes } from "./routes.ts";

/** SCIM 2.0 provisioning under /scim/v2 (docs/scim.md). */
export const scimProtocol: ProtocolRecord = {
  name: "scim",
  async register(app) {
    await app.register(scimRoutes);
  },
};
