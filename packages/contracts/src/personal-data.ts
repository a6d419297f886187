import { z } from "zod";
import { accountActivitySchema, accountSessionSchema, connectedApplicationSchema } from "./account.ts";
import { text } from "./text.ts";
import { wifiPasswordSchema } from "./wifi.ts";

const nullableText = text().nullable();
const labelSchema = z.object({ uk: text(), en: text() });
// The sections issue 74 added are bounded: what the areas keep is short (names, dates, addresses).
const shortText = text().max(500);
const moment = text().max(40);
const nullableMoment = moment.nullable();

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
  /** Wi-Fi (eduroam) network passwords: each device's name and uses, never the password or its hashes. */
  wifiPasswords: z.array(wifiPasswordSchema),
  /** Applications of the developers' page the person owns or tests, and invitations waiting for their answer. */
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
  /** Identities at home institutions (eduGAIN): without the institution's identifier of the person. */
  homeIdentities: z.array(
    z.object({
      institution: shortText,
      /** Which identifier the institution sent: subject-id, pairwise-id or eppn. */
      identifierKind: z.enum(["subject-id", "pairwise-id", "eppn"]),
      /** The visitor's own account (true) or a campus person's link (false). */
      visitor: z.boolean(),
      affiliations: z.array(shortText).max(100),
      assurance: z.array(shortText).max(100),
      linkedAt: moment,
      lastSeenAt: moment,
    }),
  ),
  /** LDAP application passwords, without the secret, with their latest uses. */
  ldapPasswords: z.array(
    z.object({
      name: shortText,
      /** The LDAP client it is tied to (its title), or null: any. */
      client: shortText.nullable(),
      createdAt: moment,
      lastUsedAt: nullableMoment,
      uses: z.array(z.object({ usedAt: moment, client: shortText.nullable(), address: shortText.nullable() })).max(100),
    }),
  ),
  /** The person's own stay as a sponsored guest (null: not a guest). */
  guest: z
    .object({
      sponsor: shortText.nullable(),
      reason: text().max(2000),
      state: z.enum(["invited", "active", "ended"]),
      since: moment,
      endsAt: moment,
      units: z.array(shortText).max(1000),
      applications: z.array(shortText).max(1000),
    })
    .nullable(),
  /** The guests the person sponsors or sponsored: who and until when (not their contacts). */
  sponsoredGuests: z.array(
    z.object({ fullName: shortText, state: z.enum(["invited", "active", "ended"]), since: moment, endsAt: moment }),
  ),
  /** Identity documents BankID matches the person by. */
  identityDocuments: z.array(
    z.object({
      kind: z.enum(["passport", "idpassport", "zpassport"]),
      series: shortText,
      number: shortText,
      addedAt: moment,
    }),
  ),
});
export type PersonalData = z.infer<typeof personalDataSchema>;

/** The download's sections, in the file's order: what the areas fill (everything but the date and the labels). */
export type PersonalDataSections = Omit<PersonalData, "exportedAt" | "labels">;
export const personalDataSectionKeys = Object.keys(personalDataSchema.shape).filter(
  (key) => key !== "exportedAt" && key !== "labels",
) as (keyof PersonalDataSections)[];
/** The profile's fields, each labelled in the file after the profile's own label. */
export const personalProfileFields = Object.keys(personalDataSchema.shape.profile.shape);
