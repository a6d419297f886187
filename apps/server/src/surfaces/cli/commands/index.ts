import type { CommandHandler } from "../context.ts";
import { accessRuleCommands } from "./access-rules.ts";
import { appCommands } from "./app.ts";
import { auditCommands } from "./audit.ts";
import { bankIdCommands } from "./bankid.ts";
import { diiaCommands } from "./diia.ts";
import { keysCommands } from "./keys.ts";
import { ldapCommands } from "./ldap.ts";
import { roleCommands } from "./role.ts";
import { samlCommands } from "./saml.ts";
import { scimCommands } from "./scim.ts";
import { secretsCommands } from "./secrets.ts";
import { unitCommands } from "./unit.ts";
import { userCommands } from "./user.ts";
import { userEraseCommands } from "./user-erase.ts";
import { userGoogleCommands } from "./user-google.ts";
import { userMfaCommands } from "./user-mfa.ts";
import { userUnlockCommands } from "./user-unlock.ts";
import { wifiCommands } from "./wifi.ts";

/** Command groups; each issue that adds operator commands adds its group here. */
export const commandGroups: Record<string, Record<string, CommandHandler>> = {
  app: { ...appCommands, ...accessRuleCommands },
  audit: auditCommands,
  bankid: bankIdCommands,
  diia: diiaCommands,
  keys: keysCommands,
  ldap: ldapCommands,
  role: roleCommands,
  saml: samlCommands,
  scim: scimCommands,
  secrets: secretsCommands,
  unit: unitCommands,
  wifi: wifiCommands,
  user: { ...userCommands, ...userGoogleCommands, ...userUnlockCommands, ...userMfaCommands, ...userEraseCommands },
};
