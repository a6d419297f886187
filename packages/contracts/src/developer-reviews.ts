import { z } from "zod";
import { unitRefSchema } from "./admin.ts";
import { fieldChangeSchema } from "./developer-changes.ts";
import { developerApplicationDetails } from "./developers.ts";
import { text } from "./text.ts";

/** Going live: an owner asks for the operators' review, and the operators decide it or suspend an application. */

export const reviewRequestSchema = z.object({
  purpose: text().trim().min(10).max(2000),
  dataNeeded: text().trim().min(10).max(2000),
});
export type ReviewRequest = z.infer<typeof reviewRequestSchema>;

/** The console's review queue and suspension (`/{lang}/admin/reviews`). */
export const reviewQueueSchema = z.object({
  reviews: z.array(
    z.object({
      applicationId: z.uuid(),
      /** `review`: a new application asks to go live; `change`: a live one asks to change (see `changes`). */
      kind: z.enum(["review", "change"]),
      /** The request's id: the decision names it, so an operator never approves one they have not seen. */
      requestId: z.uuid(),
      /** The live values below, each changed field old → new (empty for a review). */
      changes: z.array(fieldChangeSchema),
      title: text(),
      titleEn: text(),
      ...developerApplicationDetails,
      owners: z.array(text()),
      purpose: text(),
      dataNeeded: text(),
      requestedAt: text(),
      /**
       * The owning unit's admin approved it first (issue 79): it waits for central IT, who read which unit
       * approved it, by whom (null once that person is gone) and when.
       */
      unitApproval: z.object({ unit: unitRefSchema, by: text().nullable(), at: text() }).nullable().optional(),
      /** Whether a unit admin's approval makes it live: its unit, or one above it, lets unit reviews be final. */
      unitFinal: z.boolean().optional(),
    }),
  ),
});
export type ReviewQueue = z.infer<typeof reviewQueueSchema>;

export const reviewDecisionSchema = z.discriminatedUnion("decision", [
  z.object({ decision: z.literal("approved"), requestId: z.uuid() }),
  z.object({ decision: z.literal("rejected"), requestId: z.uuid(), reason: text().trim().min(3).max(2000) }),
]);
export type ReviewDecision = z.infer<typeof reviewDecisionSchema>;

export const suspensionRequestSchema = z.object({
  suspended: z.boolean(),
  reason: text().trim().max(2000).default(""),
});
export type SuspensionRequest = z.input<typeof suspensionRequestSchema>;

/** What a review decision and a suspension answer. */
export const reviewActionResultSchema = z.object({ ok: z.literal(true) });
