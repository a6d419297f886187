import { z } from "zod";
import { personStatuses, unitRefSchema } from "./admin.ts";
import { applicationLifecycles } from "./developers.ts";
import { text } from "./text.ts";

/** The console's application screen (`/{lang}/admin/applications/{id}`): settings, access rules, who has access. */

export const accessRuleAffiliations = [
  "student",
  "employee",
  "faculty",
  "staff",
  "member",
  "alum",
  "affiliate",
] as const;
export const accessRuleStatuses = [
  "studying",
  "academic_leave",
  "graduated",
  "dismissed",
  "active",
  "on_leave",
  "terminated",
] as const;
export const applicationScopes = ["openid", "profile", "email", "kpi", "offline_access", "tax_id"] as const;

const url = text().max(2048);

/** Everything an operator can set on an application. */
export const applicationSettingsSchema = z.object({
  title: text(),
  description: text(),
  titleEn: text(),
  descriptionEn: text(),
  /** The first is the default callback; a sign-in link may name another with redirectUri. */
  callbackUrls: z.array(text()),
  releaseTaxId: z.boolean(),
  requireMfa: z.boolean(),
  oidcEnabled: z.boolean(),
  redirectUris: z.array(text()),
  postLogoutRedirectUris: z.array(text()),
  scopes: z.array(text()),
  publicClient: z.boolean(),
  firstParty: z.boolean(),
  backchannelLogoutUri: text().nullable(),
  /** May ask for device codes (RFC 8628: bots, terminals, lecture-hall screens). */
  deviceFlow: z.boolean(),
});
export type ApplicationSettings = z.infer<typeof applicationSettingsSchema>;

export const adminApplicationDetailSchema = applicationSettingsSchema.extend({
  id: z.uuid(),
  name: text(),
  createdAt: text(),
  updatedAt: text(),
  /** Where an application registered on the developers' page stands (an operator's own ones are live). */
  lifecycle: z.enum(applicationLifecycles).optional(),
  /** An operator stopped its sign-ins (POST /api/admin/applications/{id}/suspension). */
  suspended: z.boolean().optional(),
  /** The unit it belongs to (issue 79); null: central IT's. */
  unit: unitRefSchema.nullable().optional(),
});
export type AdminApplicationDetail = z.infer<typeof adminApplicationDetailSchema>;

/** An edit: a field left out stays; the whole edit is one transaction. */
export const applicationUpdateRequestSchema = z.object({
  title: text().max(200).optional(),
  description: text().max(1000).optional(),
  titleEn: text().max(200).optional(),
  descriptionEn: text().max(1000).optional(),
  callbackUrls: z.array(url).max(11).optional(),
  releaseTaxId: z.boolean().optional(),
  requireMfa: z.boolean().optional(),
  oidcEnabled: z.boolean().optional(),
  redirectUris: z.array(url).max(20).optional(),
  postLogoutRedirectUris: z.array(url).max(20).optional(),
  scopes: z.array(text().max(32)).max(10).optional(),
  publicClient: z.boolean().optional(),
  firstParty: z.boolean().optional(),
  backchannelLogoutUri: url.nullable().optional(),
  deviceFlow: z.boolean().optional(),
});
export type ApplicationUpdateRequest = z.infer<typeof applicationUpdateRequestSchema>;

export const accessRuleViewSchema = z.object({
  id: z.uuid(),
  affiliation: text().nullable(),
  unitCode: text().nullable(),
  /** The unit's Ukrainian name; `unitNameEn` its English one (empty when the unit has none). */
  unitName: text().nullable(),
  unitNameEn: text().nullable().optional(),
  includeSubunits: z.boolean(),
  status: text().nullable(),
});
export type AccessRuleView = z.infer<typeof accessRuleViewSchema>;

const namedPerson = z.object({ id: z.uuid(), username: text(), fullName: text() });

/** The application's rules, its individual exclusions, and how many people may use it now. */
export const applicationAccessSchema = z.object({
  rules: z.array(accessRuleViewSchema),
  exclusions: z.array(namedPerson),
  people: z.number().int(),
});
export type ApplicationAccess = z.infer<typeof applicationAccessSchema>;

export const newAccessRuleRequestSchema = z.object({
  affiliation: z.enum(accessRuleAffiliations).nullish(),
  /** A unit's code (as `unit list` shows it). */
  unitCode: text().trim().max(64).nullish(),
  includeSubunits: z.boolean().default(true),
  status: z.enum(accessRuleStatuses).nullish(),
});
export type NewAccessRuleRequest = z.input<typeof newAccessRuleRequestSchema>;

export const ruleIdRequestSchema = z.object({ ruleId: z.uuid() });
export const exclusionRequestSchema = z.object({ username: text().trim().min(1).max(128) });
export const liftExclusionRequestSchema = z.object({ userId: z.uuid() });

export const applicationPeopleQuerySchema = z.object({
  q: text().max(200).optional(),
  page: z.coerce.number().int().min(1).max(4000).default(1),
});

/** How a person has the application: an individual grant, a rule, or both. */
export const accessSources = ["grant", "rule", "both"] as const;

export const applicationPeoplePageSchema = z.object({
  people: z.array(
    namedPerson.extend({ email: text().nullable(), status: z.enum(personStatuses), via: z.enum(accessSources) }),
  ),
  page: z.number().int(),
  hasMore: z.boolean(),
});
export type ApplicationPeoplePage = z.infer<typeof applicationPeoplePageSchema>;

/** At most this many lines per bulk grant; more is 413 `app.bulk_grant_too_long`. */
export const bulkGrantMaxLines = 5000;

/** A pasted list or a CSV file's text: one username, e-mail or person id per line (the first cell). */
export const bulkGrantRequestSchema = z.object({ list: text().max(1_000_000) });

export const bulkGrantOutcomes = ["granted", "already_had", "unknown_person", "bad_line"] as const;
export type BulkGrantOutcome = (typeof bulkGrantOutcomes)[number];

export const bulkGrantReportSchema = z.object({
  granted: z.number().int(),
  alreadyHad: z.number().int(),
  refused: z.number().int(),
  lines: z.array(
    z.object({
      line: z.number().int(),
      value: text(),
      outcome: z.enum(bulkGrantOutcomes),
      /** A disabled person is granted as `user grant` does, but cannot sign in until enabled. */
      disabled: z.boolean(),
    }),
  ),
});
export type BulkGrantReport = z.infer<typeof bulkGrantReportSchema>;
