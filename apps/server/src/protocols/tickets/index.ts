import { gateHealthReasons, type ProtocolRecord } from "../record.ts";
import { appLinkRoutes } from "./app-link-routes.ts";
import { ticketConsentRoutes } from "./consent-routes.ts";
import { ticketExchangeRoutes } from "./exchange-routes.ts";
import { appRedirectRoutes } from "./redirect-routes.ts";

/**
 * The ticket exchange (docs/integration.md): the app redirect, its consent screen and sign-in links, and the
 * back-channel exchange. Its tickets end with the sessions that issued them (model/tickets), so it has no sign-out
 * part of its own; a paused sign-in continues to the app redirect (continue-to.ts's `application`).
 */
export const ticketsProtocol: ProtocolRecord = {
  name: "tickets",
  async register(app) {
    await app.register(appRedirectRoutes);
    await app.register(ticketConsentRoutes);
    await app.register(appLinkRoutes);
    await app.register(ticketExchangeRoutes);
  },
  health: {
    protocol: "ticket",
    reasons: [
      ...gateHealthReasons,
      "wrong_secret",
      "ticket_invalid",
      "redirect_uri_not_registered",
      "consent_declined",
    ],
  },
};
