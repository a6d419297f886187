import { z } from "zod";
import { authMethods } from "./api.ts";
import { text } from "./text.ts";

/** The operators' console (`/{lang}/admin`, `/api/admin/*`). */
export const operatorRoleNames = ["admin", "helpdesk"] as const;
export type OperatorRoleName = (typeof operatorRoleNames)[number];
/** Console roles held in a unit, reaching it and every unit below it (issue 79). */
export const unitRoleNames = ["unit_admin", "unit_helpdesk"] as const;
export type UnitRoleName = (typeof unitRoleNames)[number];

export const unitRefSchema = z.object({ id: z.uuid(), code: text(), nameUk: text(), nameEn: text() });
export type UnitRef = z.infer<typeof unitRefSchema>;
export const heldUnitRoleSchema = z.object({ role: z.enum(unitRoleNames), unit: unitRefSchema });
export type HeldUnitRoleView = z.infer<typeof heldUnitRoleSchema>;

/**
 * The units a console role reaches (every unit for admin and helpdesk), for the console's unit pickers; `reviewsFinal`
 * is set on a unit whose unit admins' approvals make applications live, in it and every unit below it.
 */
export const adminUnitsSchema = z.object({
  units: z.array(unitRefSchema.extend({ parentId: z.uuid().nullable(), reviewsFinal: z.boolean() })),
});
export type AdminUnits = z.infer<typeof adminUnitsSchema>;

/** An admin's setting of whether a unit's admins decide its reviews finally (`unit reviews --final yes|no`). */
export const unitReviewsFinalRequestSchema = z.object({ final: z.boolean() });
export type UnitReviewsFinalRequest = z.infer<typeof unitReviewsFinalRequestSchema>;

export const unitRoleRequestSchema = z.object({ unitId: z.uuid(), role: z.enum(unitRoleNames) });
export type UnitRoleRequest = z.infer<typeof unitRoleRequestSchema>;

/** The unit an application belongs to: null for central IT's (an admin's choice alone). */
export const applicationUnitRequestSchema = z.object({ unitId: z.uuid().nullable() });
export type ApplicationUnitRequest = z.infer<typeof applicationUnitRequestSchema>;

export const personStatuses = ["active", "disabled"] as const;

export const adminMeSchema = z.object({
  username: text(),
  fullName: text(),
  roles: z.array(z.enum(operatorRoleNames)),
  unitRoles: z.array(heldUnitRoleSchema).optional(),
  permissions: z.array(text()),
});
export type AdminMe = z.infer<typeof adminMeSchema>;

export const personSummarySchema = z.object({
  id: z.uuid(),
  username: text(),
  fullName: text(),
  email: text().nullable(),
  studentId: text().nullable(),
  employeeId: text().nullable(),
  status: z.enum(personStatuses),
  /** The units of the person's records within the operator's reach, by code (issue 79). */
  units: z.array(z.object({ code: text(), nameUk: text(), nameEn: text() })).optional(),
});
export type PersonSummary = z.infer<typeof personSummarySchema>;

export const peopleQuerySchema = z.object({
  q: text().max(200).optional(),
  status: z.enum(personStatuses).optional(),
  app: z.uuid().optional(),
  page: z.coerce.number().int().min(1).max(4000).default(1),
});
export type PeopleQuery = z.input<typeof peopleQuerySchema>;

export const peoplePageSchema = z.object({
  people: z.array(personSummarySchema),
  page: z.number().int(),
  hasMore: z.boolean(),
  /** How many match, counted up to a cap (1,000); when `totalCapped`, more than `total` match. */
  total: z.number().int(),
  totalCapped: z.boolean(),
});
export type PeoplePage = z.infer<typeof peoplePageSchema>;

export const personIdParamsSchema = z.object({ id: z.uuid() });

export const adminSessionSchema = z.object({
  id: z.uuid(),
  method: z.enum(authMethods),
  startedAt: text(),
  lastActiveAt: text(),
  address: text(),
  userAgent: text(),
});

export const adminSignInSchema = z.object({
  occurredAt: text(),
  type: text(),
  result: z.enum(["success", "failure"]),
  method: text().nullable(),
  reason: text().nullable(),
  address: text().nullable(),
});

/** Who wrote a record: the HR or student system (SCIM), a CSV import, the CLI, the console. */
export const recordSources = ["scim", "csv", "cli", "console"] as const;

export const personRecordSchema = z.object({
  kind: z.enum(["student", "employee"]),
  /** The student id or the employee id. */
  id: text(),
  /** A student record's status (studying, academic_leave, graduated, dismissed) or a position's (active, on_leave, terminated). */
  status: text(),
  primary: z.boolean(),
  unit: z.object({ code: text(), nameUk: text(), nameEn: text() }).nullable(),
  /** The position's title or the speciality, "" when none is on file. */
  title: text(),
  source: text(),
});
export type PersonRecord = z.infer<typeof personRecordSchema>;

export const personDetailSchema = personSummarySchema.extend({
  hasTaxId: z.boolean(),
  createdAt: text(),
  roles: z.array(z.enum(operatorRoleNames)),
  unitRoles: z.array(heldUnitRoleSchema).optional(),
  /** `titleEn` is empty when the operator gave no English title. */
  applications: z.array(z.object({ id: z.uuid(), name: text(), title: text(), titleEn: text() })),
  sessions: z.array(adminSessionSchema),
  signIns: z.array(adminSignInSchema),
  /** Strangers' failed password guesses on the account: what unlock forgets. */
  throttle: z.object({ failures: z.number().int(), lockedUntil: text().nullable() }),
  googleSubjects: z.array(text()),
  /** Whether security mail (a recovery link, notices) can reach them: an address KPI ID has seen proven. */
  emailVerified: z.boolean(),
  /** What a second-factor reset removes. */
  secondFactor: z.object({ authenticator: z.boolean(), passkeys: z.number().int() }),
  /**
   * What the university's HR and student systems hold of the person (SCIM): managed when a source system
   * provisioned them (its id, or records it wrote); removedAt when one deleted them.
   */
  provisioning: z.object({ managed: z.boolean(), externalId: text().nullable(), removedAt: text().nullable() }),
  /** The person's student records and employee positions, primary first, with their units and who wrote them. */
  records: z.array(personRecordSchema),
  /** When the person's personal data was erased or anonymised (docs/privacy.md); null for everyone else. */
  erasedAt: text().nullable(),
});
export type PersonDetail = z.infer<typeof personDetailSchema>;

/** A profile change: a field left out stays, null clears it. */
export const personChangesRequestSchema = z.object({
  fullName: text().max(200).optional(),
  email: text().max(320).nullable().optional(),
  taxId: text().max(10).nullable().optional(),
  studentId: text().max(64).nullable().optional(),
  employeeId: text().max(64).nullable().optional(),
});
export type PersonChangesRequest = z.infer<typeof personChangesRequestSchema>;

export const personStatusRequestSchema = z.object({ status: z.enum(personStatuses) });
export const applicationIdRequestSchema = z.object({ applicationId: z.uuid() });

export const adminActionResultSchema = z.object({ done: z.boolean(), count: z.number().int().optional() });
export type AdminActionResult = z.infer<typeof adminActionResultSchema>;

export const adminApplicationSchema = z.object({
  id: z.uuid(),
  name: text(),
  title: text(),
  /** Empty when the operator gave no English title: English screens show `title` then. */
  titleEn: text(),
  callbackUrl: text(),
  oidcEnabled: z.boolean(),
  firstParty: z.boolean(),
  people: z.number().int(),
  /** The unit the application belongs to (issue 79); null: central IT's. */
  unit: z.object({ id: z.uuid(), code: text() }).nullable().optional(),
});
export type AdminApplication = z.infer<typeof adminApplicationSchema>;

export const adminApplicationsSchema = z.object({ applications: z.array(adminApplicationSchema) });

export const newApplicationRequestSchema = z.object({
  name: text().min(1).max(64),
  title: text().min(1).max(200),
  description: text().max(1000).optional(),
  callbackUrl: text().min(1).max(2048),
  /** The unit it belongs to: required of a unit admin (one within reach), optional for an admin. */
  unitId: z.uuid().optional(),
});
export type NewApplicationRequest = z.infer<typeof newApplicationRequestSchema>;

/** A new application or a rotated secret: the secret is in this answer only, never again. */
export const applicationSecretSchema = z.object({ application: adminApplicationSchema, secret: text() });
export type ApplicationSecret = z.infer<typeof applicationSecretSchema>;
