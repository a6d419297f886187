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
  /**
   * FreeRADIUS's CoA listener (RADIUS_COA_SERVER, RADIUS_COA_SECRET), which relays KPI ID's Disconnect-Requests to
   * the controller holding the session; without the secret no device is disconnected (docs/eduroam.md).
   */
  coa?: { server: string; secret: string };
}

/** A shared secret checked like METRICS_TOKEN: too short refused everywhere, a weak one in production. */
function checkedSecret(name: string, value: string | undefined, isProduction: boolean): string | undefined {
  if (value === undefined) return undefined;
  const problem = secretProblem(value);
  if (problem && (isProduction || problem === "too_short")) {
    throw new ConfigError(`${name}: ${describeSecretProblem(problem)}`);
  }
  return value;
}

/** RADIUS_REST_SECRET is checked like METRICS_TOKEN: too short refused everywhere, a weak one in production. */
export function readWifiConfig(environment: Environment, isProduction: boolean): WifiConfig {
  const restSecret = checkedSecret("RADIUS_REST_SECRET", environment.RADIUS_REST_SECRET, isProduction);
  // FreeRADIUS expands % in the rest module's password (xlat): such a secret would not reach us whole.
  if (restSecret?.includes("%")) throw new ConfigError("RADIUS_REST_SECRET: must not contain %");
  const coaSecret = checkedSecret("RADIUS_COA_SECRET", environment.RADIUS_COA_SECRET, isProduction);
  // radclient reads the secret as one line of a file.
  if (coaSecret && /[\r\n]/.test(coaSecret)) throw new ConfigError("RADIUS_COA_SECRET: must be one line");
  const realm = environment.WIFI_REALM.toLowerCase();
  return {
    restSecret,
    realm,
    operatorName: environment.WIFI_OPERATOR_NAME ?? `1${realm}`,
    ssid: environment.WIFI_SSID,
    coa: coaSecret === undefined ? undefined : { server: environment.RADIUS_COA_SERVER, secret: coaSecret },
    vlans: {
      students: environment.WIFI_VLAN_STUDENTS,
      staff: environment.WIFI_VLAN_STAFF,
      guests: environment.WIFI_VLAN_GUESTS,
    },
  };
}
