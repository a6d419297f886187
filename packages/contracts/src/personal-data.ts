import { z } from "zod";
import { accountActivitySchema, accountSessionSchema, connectedApplicationSchema } from "./account.ts";
import { text } from "./text.ts";
import { wifiPasswordSchema } from "./wifi.ts";

const nullableText = text().nullable();
const labelSchema = z.object({ uk: text(), en: text() });

/** A student record or an employee position, as the university's systems gave it. */
const personalRecordSchema = z.object({
  kind: z.enum(["student", "employee"]),
  id: text(),
  unit: nullableText,
  status: text(),
  title: text(),
  startsOn: nullableText,
  endsOn: nullableText,
  primary: z.boolean(),
  source: text(),
});

/**
 * Everything KPI ID keeps about the signed-in person, as they download it from the account page
 * (docs/privacy.md). Secrets are never in it: no password hash, no authenticator-app secret, no key.
 * `labels` names each section in both languages, so the file reads without the service.
 */
export const personalDataSchema = z.object({
  exportedAt: text(),
  labels: z.record(text(), labelSchema),
  profile: z.object({
    username: text(),
    fullName: text(),
    email: nullableText,
    verifiedEmail: nullableText,
    taxId: nullableText,
    studentId: nullableText,
    employeeId: nullableText,
    status: text(),
    createdAt: text(),
    firstSignedInAt: nullableText,
  }),
  records: z.array(personalRecordSchema),
  signInMethods: z.object({
    password: z.boolean(),
    authenticatorApp: z.object({ confirmedAt: nullableText }).nullable(),
    recoveryCodesLeft: z.number().int(),
    passkeys: z.array(z.object({ name: text(), createdAt: text(), lastUsedAt: nullableText, synced: z.boolean() })),
    googleAccounts: z.array(z.object({ linkedAt: text() })),
  }),
  sessions: z.array(accountSessionSchema),
  applications: z.array(connectedApplicationSchema),
  consents: z.object({
    openIdConnect: z.array(z.object({ application: text(), scopes: z.array(text()), until: text() })),
    saml: z.array(z.object({ serviceProvider: text(), attributes: z.array(text()), givenAt: text() })),
  }),
  securityActivity: z.array(accountActivitySchema),
  /** Applications of the developers' page the person owns or tests, and invitations waiting for their answer. */
  /** Wi-Fi (eduroam) network passwords: each device's name and uses, never the password or its hashes. */
  wifiPasswords: z.array(wifiPasswordSchema),
  developerApplications: z.array(
    z.object({
      title: text(),
      role: z.enum(["owner", "tester"]),
      status: z.enum(["member", "invited"]),
      /** When they became a member (null for an invitation). */
      memberSince: nullableText,
      /** When a waiting invitation expires (null for a member). */
      invitationExpiresAt: nullableText,
    }),
  ),
});
export type PersonalData = z.infer<typeof personalDataSchema>;
