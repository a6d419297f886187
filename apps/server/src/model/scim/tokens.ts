import { text } from "@kpi-id/contracts";
import { sql } from "kysely";
import { hashTokenHex, matchesTokenHash, newToken } from "../../platform/crypto/tokens.ts";
import type { ScimToken } from "../../platform/db/people-schema.ts";
import type { Db } from "../../platform/db/schema.ts";

/**
 * SCIM bearer tokens: one per source system, made by an operator, shown once, kept as SHA-256.
 * The prefix lets a secret scanner recognise a leaked token.
 */
export const scimTokenPrefix = "kpiscim_";

export const scimTokenNameSchema = text()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\p{L}\p{N}._-]+$/u, "letters, digits, '.', '_' and '-' only");

export class ScimTokenError extends Error {
  override name = "ScimTokenError";
}

export interface CreatedScimToken {
  token: string;
  row: ScimToken;
}

export async function createScimToken(db: Db, name: string): Promise<CreatedScimToken> {
  const parsed = scimTokenNameSchema.safeParse(name);
  if (!parsed.success) throw new ScimTokenError(`--name: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  const taken = await db
    .selectFrom("scim_tokens")
    .select("id")
    .where(sql<string>`lower(name)`, "=", parsed.data.toLowerCase())
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (taken) throw new ScimTokenError(`a SCIM token named '${parsed.data}' exists; revoke it first`);
  const token = `${scimTokenPrefix}${newToken()}`;
  const row = await db
    .insertInto("scim_tokens")
    .values({ name: parsed.data, token_hash: hashTokenHex(token) })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { token, row };
}

export function listScimTokens(db: Db): Promise<ScimToken[]> {
  return db.selectFrom("scim_tokens").selectAll().orderBy("created_at").execute();
}

/** Revokes the live token of that name; false when there is none. */
export async function revokeScimToken(db: Db, name: string, now: Date): Promise<ScimToken | undefined> {
  return db
    .updateTable("scim_tokens")
    .set({ revoked_at: now })
    .where(sql<string>`lower(name)`, "=", name.trim().toLowerCase())
    .where("revoked_at", "is", null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The live token a presented bearer value is, or undefined. The row is found by the hash (an index
 * lookup reveals nothing: the hash of a guess says nothing about the stored one), then compared in
 * constant time as every secret of the service is.
 */
export async function verifyScimToken(db: Db, presented: string, now: Date): Promise<ScimToken | undefined> {
  if (!presented.startsWith(scimTokenPrefix) || presented.length > 128) return undefined;
  const row = await db
    .selectFrom("scim_tokens")
    .selectAll()
    .where("token_hash", "=", hashTokenHex(presented))
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (!row || !matchesTokenHash(row.token_hash, presented)) return undefined;
  // Last use is for the operator's list; a minute's precision is enough and spares a write per request.
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > 60_000) {
    await db.updateTable("scim_tokens").set({ last_used_at: now }).where("id", "=", row.id).execute();
  }
  return row;
}
