import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { listNetworkPasswords, revokeAllNetworkPasswords } from "./passwords.ts";
import { forgetWifiSwitch } from "./people.ts";
import { deleteIdleWifiSessions } from "./sessions.ts";
import { wifiPasswordView } from "./view.ts";

/** Wi-Fi passwords (their uses go with them) and an operator's Wi-Fi switch, which has no count of its own. */
export const personData: PersonDataArea = {
  area: "wifi",
  erase: async (db, person) => {
    await forgetWifiSwitch(db, person.id);
    return { networkPasswords: await revokeAllNetworkPasswords(db, person.id) };
  },
  exportOf: async (db, person, { wifiRealm }) => ({
    wifiPasswords: (await listNetworkPasswords(db, person.id)).map((password) =>
      wifiPasswordView(password, person.username, wifiRealm),
    ),
  }),
  labels: {
    wifiPasswords: {
      uk: "Паролі Wi-Fi (eduroam), без самих паролів",
      en: "Wi-Fi (eduroam) passwords, without the passwords",
    },
  },
  // Wi-Fi sessions without accounting for wifiSessionIdleHours (the uses' retention follows the settings: cleanup.ts).
  cleanUp: async (db, now) => ({ wifiSessions: await deleteIdleWifiSessions(db, now) }),
};
