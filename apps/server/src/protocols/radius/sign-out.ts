import type { SignOutParticipant } from "../../model/sessions/sign-out.ts";
import { openWifiSessions, type WifiSession } from "../../model/wifi/sessions.ts";
import type { WifiDisconnects } from "./disconnect.ts";

/**
 * Wi-Fi's part in a sign-out: when a person is disabled or erased, each device still connected is sent a
 * Disconnect-Request (RFC 5176) through FreeRADIUS. The sessions are read in the ending's transaction, before erasure
 * deletes them; the requests go after the commit, in the background, so the operator's action never waits on a
 * controller. Other endings (a browser signing out, a password change) leave Wi-Fi alone: its passwords are its own.
 */
export function wifiSignOut(disconnects: WifiDisconnects): SignOutParticipant<WifiSession[]> {
  return {
    name: "wifi",
    withinTransaction: async (tx, ending) =>
      ending.reason === "disabled" || ending.reason === "erased" ? openWifiSessions(tx, { userId: ending.userId }) : [],
    afterCommit: async (ending, sessions) => {
      if (sessions.length > 0 && (ending.reason === "disabled" || ending.reason === "erased")) {
        void disconnects.send(sessions, ending.reason);
      }
    },
  };
}
