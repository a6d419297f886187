import { type DeveloperSecret, secretOverlapMaxHours } from "@kpi-id/contracts";
import { hashToken, hashTokenHex, newToken, sameBytes } from "../../platform/crypto/tokens.ts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { endPreviousApplicationSecret, updateApplicationIf } from "../apps/queries.ts";

/**
 * An application's secrets (issue 60): the current one and, for an overlap its owner chose (at most 7 days), the one
 * it replaced, so a site rolls its configuration over without failed sign-ins. Every place a secret is checked (the
 * ticket exchange, OpenID Connect's client authentication) asks `matchingSecret`.
 */

type SecretColumns = Pick<ApplicationRow, "secret_hash" | "previous_secret_hash" | "previous_secret_ends_at">;

// Compared against when the application is unknown, so that case costs the same as a wrong secret.
const unknownApplicationHash = hashTokenHex("no such application");

/**
 * The stored hash the presented secret matches: the current secret's, or the replaced one's until its overlap ends.
 * Both comparisons always run (constant time over SHA-256), so the answer's time says nothing about which matched.
 */
export function matchingSecret(application: SecretColumns | undefined, presented: string, now: Date) {
  const current = application?.secret_hash ?? unknownApplicationHash;
  const previous = application?.previous_secret_hash ?? unknownApplicationHash;
  // The presented secret hashed once, compared with both (every exchange and client authentication runs this).
  const presentedHash = hashToken(presented);
  const currentMatches = sameBytes(Buffer.from(current, "hex"), presentedHash);
  const previousMatches = sameBytes(Buffer.from(previous, "hex"), presentedHash);
  if (!application) return undefined;
  if (currentMatches) return current;
  const overlapping = application.previous_secret_ends_at !== null && application.previous_secret_ends_at > now;
  return previousMatches && overlapping && application.previous_secret_hash ? previous : undefined;
}

// Last uses written by this instance, so a busy application writes its row at most once a minute, not at every exchange.
const recentlyNoted = new Map<string, number>();
const noteEveryMs = 60_000;
const notedLimit = 10_000;

/** Notes that a secret was accepted now, for "last used" on the developers' page. Never throws: a sign-in goes on. */
export async function noteSecretUse(db: Db, applicationId: string, secretHash: string, now: Date): Promise<void> {
  const key = `${applicationId}:${secretHash}`;
  const last = recentlyNoted.get(key);
  if (last !== undefined && now.getTime() - last < noteEveryMs) return;
  if (recentlyNoted.size >= notedLimit) recentlyNoted.clear();
  recentlyNoted.set(key, now.getTime());
  try {
    await db
      .insertInto("application_secret_uses")
      .values({ application_id: applicationId, secret_hash: secretHash, last_used_at: now })
      .onConflict((conflict) => conflict.columns(["application_id", "secret_hash"]).doUpdateSet({ last_used_at: now }))
      .execute();
  } catch {
    // "Last used" is a help for the owner; the exchange is answered the same without it.
  }
}

/**
 * A new secret, returned once. The old one keeps working `overlapHours` more (0: it ends at once); a secret replaced
 * before that is still overlapping ends now, so there are never more than two.
 */
export async function replaceSecret(db: Db, application: ApplicationRow, overlapHours: number, now: Date) {
  const hours = Math.min(Math.max(0, Math.trunc(overlapHours)), secretOverlapMaxHours);
  const secret = newToken();
  const endsAt = hours > 0 ? new Date(now.getTime() + hours * 3_600_000) : null;
  await updateApplicationIf(db, application.id, {
    secret_hash: hashTokenHex(secret),
    secret_created_at: now,
    previous_secret_hash: endsAt ? application.secret_hash : null,
    previous_secret_ends_at: endsAt,
    updated_at: now,
  });
  return secret;
}

/** The owner ends the replaced secret before its overlap is over (it leaked, or every server has the new one). */
export async function endPreviousSecret(db: Db, applicationId: string, now: Date): Promise<void> {
  await endPreviousApplicationSecret(db, applicationId, now);
}

/** The secrets as the owners see them: when each came, was last used and (the replaced one) ends. None for a public client. */
export async function secretsOf(db: Db, application: ApplicationRow, now: Date): Promise<DeveloperSecret[]> {
  if (application.token_endpoint_auth_method === "none") return [];
  const uses = await db
    .selectFrom("application_secret_uses")
    .select(["secret_hash", "last_used_at"])
    .where("application_id", "=", application.id)
    .execute();
  const lastUse = (hash: string) => uses.find((use) => use.secret_hash === hash)?.last_used_at.toISOString() ?? null;
  const secrets: DeveloperSecret[] = [
    {
      which: "current",
      createdAt: application.secret_created_at.toISOString(),
      lastUsedAt: lastUse(application.secret_hash),
      endsAt: null,
    },
  ];
  const { previous_secret_hash: previous, previous_secret_ends_at: endsAt } = application;
  if (previous && endsAt && endsAt > now) {
    secrets.push({ which: "previous", createdAt: null, lastUsedAt: lastUse(previous), endsAt: endsAt.toISOString() });
  }
  return secrets;
}
