import { z } from "zod";
import { text } from "./text.ts";

/**
 * What an audit row says happened. The console shows each as a translated word (the web's
 * `admin-records` namespace, `events.*`), never the code itself; `audit list` prints the codes.
 */
export const auditEventTypes = [
  "sign_in",
  "session_start",
  "logout",
  "session_end",
  "app_redirect",
  "ticket_exchange",
  "oidc_sign_in",
  "oidc_logout",
  "oidc_device_confirmed",
  "oidc_device_denied",
  "method_linked",
  "method_unlinked",
  "application_revoked",
  "account_unlocked",
  "password_change",
  "password_reset_request",
  "password_reset",
  "role_granted",
  "role_revoked",
  "person_updated",
  "person_disabled",
  "person_enabled",
  "access_granted",
  "access_revoked",
  "application_created",
  "application_updated",
  "application_secret_rotated",
  "application_secret_ended",
  "application_signed_out_everyone",
  "application_deleted",
  "application_people_changed",
  "application_invitation_sent",
  "application_invitation_received",
  "application_invitation_accepted",
  "application_invitation_declined",
  "application_invitation_withdrawn",
  "application_left",
  "application_review_requested",
  "application_reviewed",
  "application_change_requested",
  "application_change_approved",
  "application_change_rejected",
  "application_change_withdrawn",
  "application_suspended",
  "application_unsuspended",
  "people_imported",
  "signing_keys_rotated",
  "recovery_started",
  "access_rule_added",
  "access_rule_removed",
  "scim_change",
  "second_factor",
  "second_factor_changed",
  "audit_exported",
  "personal_data_exported",
  "person_erased",
  "secrets_resealed",
  "wifi_sign_in",
  "wifi_password_created",
  "wifi_password_revoked",
  "wifi_turned_off",
  "wifi_turned_on",
  "wifi_disconnect",
  "ldap_bind",
  "ldap_password_created",
  "ldap_password_revoked",
  "ldap_client_registered",
  "ldap_client_removed",
  "guest_invited",
  "guest_accepted",
  "guest_extended",
  "guest_ended",
  "guest_reminded",
  "guest_handed_over",
  "unit_reviews_set",
  "visitor_account_created",
] as const;
export type AuditEventType = (typeof auditEventTypes)[number];

export const auditResults = ["success", "failure"] as const;

// A calendar day the database can hold as a timestamp (no year 0, no year 10000).
const auditDay = z.iso.date().regex(/^(19|2\d)\d\d-/);

/** The audit screen's filters; the export takes the same ones. Days are whole UTC days, both ends included. */
export const auditFilterSchema = z.object({
  /** A person acted on (or acting for themselves): username or id. */
  person: text().trim().max(128).optional(),
  /** The operator who acted: username or id. */
  actor: text().trim().max(128).optional(),
  type: z.enum(auditEventTypes).optional(),
  result: z.enum(auditResults).optional(),
  app: z.uuid().optional(),
  from: auditDay.optional(),
  to: auditDay.optional(),
  ip: text().trim().max(64).optional(),
});
export type AuditFilters = z.infer<typeof auditFilterSchema>;

export const auditQuerySchema = auditFilterSchema.extend({
  /** The last row of the previous page (its id): the next page starts after it. */
  after: text()
    .regex(/^\d{1,18}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const namedPersonSchema = z.object({ id: z.uuid(), username: text(), fullName: text() });

export const auditEventViewSchema = z.object({
  id: text(),
  occurredAt: text(),
  type: text(),
  result: z.enum(auditResults),
  method: text().nullable(),
  person: namedPersonSchema.nullable(),
  actor: namedPersonSchema.nullable(),
  application: z.object({ id: z.uuid(), name: text(), title: text(), titleEn: text() }).nullable(),
  reason: text().nullable(),
  address: text().nullable(),
  /** The unit a unit admin or unit helpdesk acted in (issue 79); null for the university's own actions. */
  unit: z.object({ id: z.uuid(), code: text() }).nullable().optional(),
});
export type AuditEventView = z.infer<typeof auditEventViewSchema>;

export const auditPageSchema = z.object({
  events: z.array(auditEventViewSchema),
  /** Pass as `after` for the next page; null on the last page. */
  next: text().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/** Why a line of an import is refused: a key of the web's `admin-records` namespace (`reasons.*`). */
export const importReasonCodes = [
  "csv_syntax",
  "field_count",
  "missing_columns",
  "unknown_columns",
  "invalid_value",
  "cannot_clear",
  "full_name_required",
  "record_id_required",
  "unknown_unit",
  "unknown_application",
  "tax_id_taken",
  "duplicate",
  "username_retired",
  "failed",
] as const;
export type ImportReasonCode = (typeof importReasonCodes)[number];

export const importOutcomes = ["created", "updated", "unchanged", "rejected"] as const;

/** The most bytes the console takes in one import (the CLI has no limit). */
export const importMaxBytes = 1024 * 1024;

/**
 * A CSV file, base64, as the browser read it: the server checks its encoding, not the browser. The
 * route's body limit bounds it, with room for a file a little over the limit to get its own refusal.
 */
export const importRequestSchema = z.object({ file: text().regex(/^[A-Za-z0-9+/]*={0,2}$/) });

export const importLineSchema = z.object({
  line: z.number().int(),
  username: text().nullable(),
  outcome: z.enum(importOutcomes),
  reason: z.enum(importReasonCodes).nullable(),
  /** The column the reason is about, as the header spells it in `user create` flags. */
  field: text().nullable(),
  /** The rule's own words (English), for the operator who needs the detail. */
  detail: text().nullable(),
  /** Every problem found on a refused line, so it is fixed once (the first is reason and field above). */
  problems: z
    .array(z.object({ reason: z.enum(importReasonCodes), field: text().nullable(), detail: text() }))
    .default([]),
});
export type ImportLine = z.infer<typeof importLineSchema>;

export const importReportSchema = z.object({
  applied: z.boolean(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  rejected: z.number().int(),
  lines: z.array(importLineSchema),
});
export type ImportReportView = z.infer<typeof importReportSchema>;

/** A dry run tries every line inside a transaction that is rolled back; an apply keeps them. */
export const importModes = ["dry-run", "apply"] as const;
export type ImportMode = (typeof importModes)[number];

/**
 * Where an import job stands. `interrupted`: the instance running it stopped (a restart, a crash)
 * before it ended; the lines it applied are kept whole, and running the file again completes it.
 */
export const importJobStatuses = ["running", "done", "cancelled", "failed", "interrupted"] as const;
export type ImportJobStatus = (typeof importJobStatuses)[number];

/** Starts an import in the background; the same file in the same mode while one runs joins that job. */
export const importJobRequestSchema = importRequestSchema.extend({
  mode: z.enum(importModes),
  /** The file's name as the operator chose it, shown beside the job. */
  fileName: text().max(255),
});

/** Which lines a job's report carries: those with a problem (the default), or all of them. */
export const importLinesShown = ["problems", "all"] as const;

export const importJobSchema = z.object({
  id: z.uuid(),
  mode: z.enum(importModes),
  status: z.enum(importJobStatuses),
  fileName: text(),
  /** Data lines in the file; `processed` of them are done so far. */
  total: z.number().int(),
  processed: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  rejected: z.number().int(),
  startedAt: text(),
  finishedAt: text().nullable(),
  /** Once the job has ended: its lines, as `lines` asked (problem lines by default); empty while it runs. */
  lines: z.array(importLineSchema),
});
export type ImportJobView = z.infer<typeof importJobSchema>;

/** The operator's newest job, so the import page shows it again after they come back; null when none. */
export const latestImportJobSchema = z.object({ job: importJobSchema.nullable() });
export type LatestImportJob = z.infer<typeof latestImportJobSchema>;
