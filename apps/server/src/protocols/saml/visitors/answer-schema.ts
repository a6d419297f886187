import { z } from "zod";

/** A recorded answer as read back from the database (written by receiveAnswer from a VisitorAnswer). */
export const answerSchema = z.object({
  identity: z.object({
    institution: z.string(),
    subjectKind: z.enum(["subject-id", "pairwise-id", "eppn"]),
    subject: z.string(),
    nameId: z.string().nullable(),
    scopedAffiliations: z.array(z.string()),
    assurance: z.array(z.string()),
  }),
  name: z.string(),
  email: z.string().nullable(),
  authnContext: z.string().optional(),
});
