import { ConfigError } from "./error.ts";
import type { Environment } from "./schema.ts";
import { describeSecretProblem, secretProblem } from "./secrets.ts";

/** Who is on which VLAN: the Tunnel-Private-Group-Id answered for each affiliation, when set. */
export interface WifiVlans {
  students?: string;
  staff?: string;
  guests?: string;
}

/** Wi-Fi through FreeRADIUS (docs/eduroam.md). */
export interface WifiConfig {
  /** RADIUS_REST_SECRET: FreeRADIUS's rest module presents it; without it the endpoint is not served (404). */
  restSecret?: string;
  /** The realm people's Wi-Fi names end in: username@realm, username+device@realm. */
  realm: string;
  /** RFC 5580 Operator-Name of this university (1 = a realm), the default when a request names none. */
  operatorName: string;
  vlans: WifiVlans;
  /** The network's name (SSID) the account page tells people to join. */
  ssid: string;
}

/** RADIUS_REST_SECRET is checked like METRICS_TOKEN: too short refused everywhere, a weak one in production. */
export function readWifiConfig(environment: Environment, isProduction: boolean): WifiConfig {
  const restSecret = environment.RADIUS_REST_SECRET;
  if (restSecret !== undefined) {
    const problem = secretProblem(restSecret);
    if (problem && (isProduction || problem === "too_short")) {
      throw new ConfigError(`RADIUS_REST_SECRET: ${describeSecretProblem(problem)}`);
    }
    // FreeRADIUS expands % in the rest module's password (xlat): such a secret would not reach us whole.
    if (restSecret.includes("%")) throw new ConfigError("RADIUS_REST_SECRET: must not contain %");
  }
  const realm = environment.WIFI_REALM.toLowerCase();
  return {
    restSecret,
    realm,
    operatorName: environment.WIFI_OPERATOR_NAME ?? `1${realm}`,
    ssid: environment.WIFI_SSID,
    vlans: {
      students: environment.WIFI_VLAN_STUDENTS,
      staff: environment.WIFI_VLAN_STAFF,
      guests: environment.WIFI_VLAN_GUESTS,
    },
  };
}
