import { findPendingLogin } from "../../model/cas/logins.ts";
import { continuingToApplication, gateHealthReasons, type ProtocolRecord } from "../record.ts";
import { casLoginRoutes } from "./login-routes.ts";
import { casSignOut } from "./single-logout.ts";
import { casValidationRoutes } from "./validate-routes.ts";

/** CAS Protocol 3.0 under /cas (docs/cas.md), and its single logout in every sign-out. */
export const casProtocol: ProtocolRecord = {
  name: "cas",
  async register(app) {
    await app.register(casLoginRoutes);
    await app.register(casValidationRoutes);
  },
  signOut: casSignOut,
  // A /cas/login waiting on the server (cas_pending_logins.id) names its service's application.
  async continuingTo(app, waiting) {
    const login = await findPendingLogin(app.db, waiting, app.clock());
    return login ? continuingToApplication(app.db, login.applicationId) : undefined;
  },
  health: {
    protocol: "cas",
    reasons: [
      ...gateHealthReasons,
      "ticket_invalid",
      "service_mismatch",
      "proxy_callback_refused",
      "proxy_not_allowed",
      "renew_not_met",
      "proxy_ticket_at_service_validate",
    ],
  },
};
