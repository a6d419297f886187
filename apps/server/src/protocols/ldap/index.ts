import type { ProtocolRecord } from "../record.ts";
import { registerLdap } from "./plugin.ts";

/** LDAP for the applications that can only bind (docs/ldap.md), when LDAP_LDAPI_PATH is set. */
export const ldapProtocol: ProtocolRecord = { name: "ldap", register: registerLdap };
