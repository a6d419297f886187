import type { Selectable } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import type { FederatedIdentitiesTable } from "../../platform/db/schema-saml.ts";

export type FederatedIdentityRow = Selectable<FederatedIdentitiesTable>;

/** Who a home institution says signed in: the identifier KPI ID keys them by, and what it released. */
export interface HomeIdentity {
  institution: string;
  subjectKind: FederatedIdentityRow["subject_kind"];
  subject: string;
  /** The persistent NameID, kept beside an eduPersonPrincipalName to notice a reassigned one. */
  nameId: string | null;
  scopedAffiliations: string[];
  /** REFEDS Assurance Framework values (eduPersonAssurance), shown to operators. */
  assurance: string[];
}

export const findHomeIdentity = (db: Db, identity: Pick<HomeIdentity, "institution" | "subjectKind" | "subject">) =>
  db
    .selectFrom("federated_identities")
    .selectAll()
    .where("institution", "=", identity.institution)
    .where("subject_kind", "=", identity.subjectKind)
    .where("subject", "=", identity.subject)
    .executeTakeFirst();

/** Records a home identity for the person: a visitor's own account (visitor) or a campus person's link. */
export async function addHomeIdentity(db: Db, userId: string, identity: HomeIdentity, visitor: boolean, now: Date) {
  await db
    .insertInto("federated_identities")
    .values({
      user_id: userId,
      institution: identity.institution,
      subject_kind: identity.subjectKind,
      subject: identity.subject,
      name_id: identity.nameId,
      scoped_affiliations: identity.scopedAffiliations,
      assurance: identity.assurance,
      visitor,
      created_at: now,
      last_seen_at: now,
    })
    .execute();
}

/** A later sign-in: what the institution releases now replaces what it released before. */
export async function noteHomeIdentitySeen(db: Db, id: string, identity: HomeIdentity, now: Date) {
  await db
    .updateTable("federated_identities")
    .set({
      scoped_affiliations: identity.scopedAffiliations,
      assurance: identity.assurance,
      name_id: identity.nameId,
      last_seen_at: now,
    })
    .where("id", "=", id)
    .execute();
}

/** The person's home identities, for the account page and the console. */
export const homeIdentitiesOf = (db: Db, userId: string) =>
  db
    .selectFrom("federated_identities")
    .select([
      "id",
      "institution",
      "subject_kind",
      "scoped_affiliations",
      "assurance",
      "visitor",
      "created_at",
      "last_seen_at",
    ])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();

/** Unlinks one of a campus person's home identities; a visitor's own identity is their account and stays. */
export async function removeLinkedIdentity(db: Db, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom("federated_identities")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("visitor", "=", false)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Erasure: every home identity of the person goes (an erased visitor cannot be found again by it). */
export async function removeHomeIdentitiesOf(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("federated_identities").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
