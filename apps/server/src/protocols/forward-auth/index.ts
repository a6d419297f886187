import type { ProtocolRecord } from "../record.ts";
import { forwardAuthRoutes } from "./routes.ts";
import { forwardAuthSignOut } from "./sign-out.ts";

/** nginx auth_request (docs/nginx-auth-request.md): its routes, and its part in every sign-out. */
export const forwardAuthProtocol: ProtocolRecord = {
  name: "forward-auth",
  async register(app) {
    await app.register(forwardAuthRoutes);
  },
  signOut: () => forwardAuthSignOut,
};
