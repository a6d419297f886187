import { z } from "zod";
import { text } from "./text.ts";

/**
 * What the operators' review approved is what runs (issue 56): on an application that is live, a change of these
 * fields waits as a pending change until an operator approves it; the live values keep working meanwhile.
 */
export const reviewedFields = [
  "title",
  "titleEn",
  "description",
  "descriptionEn",
  "iconUrl",
  "homePageUrl",
  "privacyPolicyUrl",
  "callbackUrls",
  "redirectUris",
  "scopes",
] as const;
export type ReviewedField = (typeof reviewedFields)[number];

/** One field's difference, old → new; a single value is a list of one (none: an empty list). */
export const fieldChangeSchema = z.object({
  field: z.enum(reviewedFields),
  before: z.array(text()),
  after: z.array(text()),
});
export type FieldChange = z.infer<typeof fieldChangeSchema>;

export const pendingChangeStatuses = ["pending", "approved", "rejected"] as const;

/** The newest change an owner asked for and, once decided, the operator's answer. */
export const pendingChangeSchema = z.object({
  id: z.uuid(),
  status: z.enum(pendingChangeStatuses),
  changes: z.array(fieldChangeSchema),
  /** The operator's reason for a rejection (empty otherwise). */
  reason: text(),
  requestedAt: text(),
  decidedAt: text().nullable(),
});
export type PendingChange = z.infer<typeof pendingChangeSchema>;

/** The owner takes back the pending change they see (by its id, so a newer one is not withdrawn unseen). */
export const changeWithdrawalSchema = z.object({ changeId: z.uuid() });
export type ChangeWithdrawal = z.infer<typeof changeWithdrawalSchema>;

/** An application's icon, stored and served by KPI ID; never loaded from its owner's host. */
export const iconMaxBytes = 64 * 1024;
export const iconContentTypes = ["image/png", "image/svg+xml"] as const;
export const iconUploadSchema = z.object({
  contentType: z.enum(iconContentTypes),
  /** The file, base64-encoded (JSON like every other state-changing call, so the CSRF check is the usual one). */
  data: text()
    .max(Math.ceil(iconMaxBytes / 3) * 4 + 4)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/),
});
export type IconUpload = z.infer<typeof iconUploadSchema>;
export const iconUploadResultSchema = z.object({ iconUrl: text() });
/** Where KPI ID serves an uploaded icon: the file's SHA-256, so an address never shows other bytes. */
export const iconPathPattern = /^\/api\/developers\/icons\/[0-9a-f]{64}\.(png|svg)$/;
export const iconFileParamsSchema = z.object({ file: text().regex(/^[0-9a-f]{64}\.(png|svg)$/) });
