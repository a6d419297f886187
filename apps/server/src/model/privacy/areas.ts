import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { personData as access } from "../access/person-data.ts";
import { personData as bankid } from "../bankid/person-data.ts";
import { personData as cas } from "../cas/person-data.ts";
import { personData as connections } from "../connections/person-data.ts";
import { personData as developers } from "../developers/person-data.ts";
import { personData as diia } from "../diia/person-data.ts";
import { personData as forwardAuth } from "../forward-auth/person-data.ts";
import { personData as google } from "../google/person-data.ts";
import { personData as guests } from "../guests/person-data.ts";
import { personData as ldap } from "../ldap/person-data.ts";
import { personData as mfa } from "../mfa/person-data.ts";
import { personData as oidc } from "../oidc/person-data.ts";
import { personData as passkeys } from "../passkeys/person-data.ts";
import { personData as people } from "../people/person-data.ts";
import { personData as recovery } from "../recovery/person-data.ts";
import { personData as scim } from "../scim/person-data.ts";
import { personData as sessions } from "../sessions/person-data.ts";
import { personData as tickets } from "../tickets/person-data.ts";
import { personData as users } from "../users/person-data.ts";
import { personData as visitors } from "../visitors/person-data.ts";
import { personData as wifi } from "../wifi/person-data.ts";

/**
 * Every model area that keeps rows about a person (person-data.ts), in the order erasure visits them: the sign-ins
 * first (the provider's grants before the sessions they hang on), then the sign-in methods, then what relates the
 * person to applications (connections keeps no rows: it only exports). The data download asks each for its
 * sections (export.ts puts them in the file's order). A new area with a person's rows is its own person-data.ts and
 * one line here.
 */
export const personDataAreas: readonly PersonDataArea[] = [
  oidc,
  cas,
  forwardAuth,
  sessions,
  tickets,
  recovery,
  passkeys,
  diia,
  bankid,
  wifi,
  ldap,
  google,
  visitors,
  guests,
  mfa,
  access,
  connections,
  scim,
  people,
  users,
  developers,
];
