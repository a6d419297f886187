import { text } from "@kpi-id/contracts";
import { z } from "zod";
import { hashTokenHex, newToken } from "../../platform/crypto/tokens.ts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { findApplicationByIdOrName, insertApplication, setApplicationSecretHash } from "./queries.ts";

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A callback must be absolute, https (plain http only on loopback), with no fragment. */
export const callbackUrlSchema = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      if (url.hash || url.username || url.password) return false;
      if (url.protocol === "https:") return true;
      return url.protocol === "http:" && loopbackHosts.has(url.hostname);
    } catch {
      return false;
    }
  }, "must be an absolute https URL without a fragment (http is allowed on localhost only)");

export const newApplicationSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9][a-z0-9-_]*$/i, "letters, digits, '-' and '_' only"),
  title: text().trim().min(1).max(200),
  description: text().max(1000).default(""),
  titleEn: text().max(200).default(""),
  descriptionEn: text().max(1000).default(""),
  callbackUrl: callbackUrlSchema,
  // More ticket callbacks (say production beside development) a sign-in link may name with redirectUri.
  extraCallbackUrls: z.array(callbackUrlSchema).max(10).default([]),
  // Off for new applications: the tax id is released only where it is needed (issue 19).
  releaseTaxId: z.boolean().default(false),
  // The unit it belongs to (issue 79): its unit admins manage it; null is central IT's.
  unitId: z.uuid().nullish(),
});
export type NewApplicationInput = z.input<typeof newApplicationSchema>;

export interface CreatedApplication {
  application: ApplicationRow;
  /** Shown once; only its hash is kept. */
  secret: string;
}

export async function createApplication(
  db: Db,
  input: NewApplicationInput,
  secret = newToken(),
): Promise<CreatedApplication> {
  const fields = newApplicationSchema.parse(input);
  const application = await insertApplication(db, {
    name: fields.name,
    title: fields.title,
    description: fields.description,
    title_en: fields.titleEn,
    description_en: fields.descriptionEn,
    callback_url: fields.callbackUrl,
    extra_callback_urls: fields.extraCallbackUrls.filter((url) => url !== fields.callbackUrl),
    release_tax_id: fields.releaseTaxId,
    unit_id: fields.unitId ?? null,
    secret_hash: hashTokenHex(secret),
  });
  return { application, secret };
}

export async function rotateApplicationSecret(db: Db, idOrName: string): Promise<CreatedApplication | undefined> {
  const application = await findApplicationByIdOrName(db, idOrName);
  if (!application) return undefined;
  const secret = newToken();
  await setApplicationSecretHash(db, application.id, hashTokenHex(secret));
  return { application, secret };
}
