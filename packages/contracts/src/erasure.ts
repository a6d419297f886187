import { z } from "zod";
import { text } from "./text.ts";

/**
 * What an erasure (an operator's, on request) or an anonymisation (the schedule's, for people who left)
 * removed, kind by kind: the console shows each count in words, `user erase` prints them, and the audit
 * row `person_erased` keeps them. `auditRows` are rows kept with their address, browser and details removed.
 */
export const erasedKinds = [
  "profileFields",
  "records",
  "sessions",
  "pendingSignIns",
  "applicationTokens",
  "consents",
  "applicationAccess",
  "googleLinks",
  "passkeys",
  "authenticatorApps",
  "recoveryCodes",
  "networkPasswords",
  "applicationPasswords",
  "consoleRoles",
  "auditRows",
] as const;
export type ErasedKind = (typeof erasedKinds)[number];

export const erasedCountsSchema = z.object(
  Object.fromEntries(erasedKinds.map((kind) => [kind, z.number().int().min(0)])) as Record<ErasedKind, z.ZodNumber>,
);
export type ErasedCounts = z.infer<typeof erasedCountsSchema>;

/**
 * POST /api/admin/people/{id}/erase: the operator types the person's username to confirm, so an erasure
 * is never one stray click (or one replayed request about someone else).
 */
export const personErasureRequestSchema = z.object({ username: text().max(200) });
export type PersonErasureRequest = z.infer<typeof personErasureRequestSchema>;

export const personErasureResultSchema = z.object({ done: z.literal(true), erased: erasedCountsSchema });
export type PersonErasureResult = z.infer<typeof personErasureResultSchema>;
