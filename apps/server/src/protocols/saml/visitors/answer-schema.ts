import { text } from "@kpi-id/contracts";
import { z } from "zod";

/** A recorded answer as read back from the database (written by receiveAnswer from a VisitorAnswer). */
export const answerSchema = z.object({
  identity: z.object({
    institution: text(),
    subjectKind: z.enum(["subject-id", "pairwise-id", "eppn"]),
    subject: text(),
    nameId: text().nullable(),
    scopedAffiliations: z.array(text()),
    assurance: z.array(text()),
  }),
  name: text(),
  email: text().nullable(),
  authnContext: text().optional(),
});
