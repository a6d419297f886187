import type { Db, User } from "../../platform/db/schema.ts";
import type { IdentityDocumentKind } from "../../platform/db/schema-bankid.ts";
import { AppError } from "../../platform/errors.ts";
import { findUserByTaxId, usersIn } from "../users/queries.ts";

/** What a bank's answer says that can find a person (sign-in/bankid/person-data.ts reads it from the answer). */
export interface BankPerson {
  taxId?: string;
  documents: readonly { kind: IdentityDocumentKind; series: string; number: string }[];
}

// The campus person a bank's answer signs in: the one holding its tax id; else, when the bank sent
// none (a person who refused one) or nobody holds it, the one person holding one of its documents and
// no other tax id. Never by name: two people share names, and a bank's spelling is not ours.

async function holdersOfDocuments(db: Db, person: BankPerson): Promise<User[]> {
  if (person.documents.length === 0) return [];
  const holders = db
    .selectFrom("identity_documents")
    .select("identity_documents.user_id")
    .where((eb) =>
      eb.or(
        person.documents.map((document) =>
          eb.and([
            eb("identity_documents.kind", "=", document.kind),
            eb("identity_documents.series", "=", document.series),
            eb("identity_documents.number", "=", document.number),
          ]),
        ),
      ),
    );
  const rows = await usersIn(db, holders);
  const unique = new Map(rows.map((user) => [user.id, user]));
  // When the bank names a tax id, a person recorded with another one is someone else, whatever document they share.
  return [...unique.values()].filter((user) => !person.taxId || !user.tax_id || user.tax_id === person.taxId);
}

function mustBeActive(user: User): User {
  if (user.status !== "active") throw new AppError("bankid.failed", { reason: "user.disabled" });
  return user;
}

export async function findPersonForBankId(db: Db, person: BankPerson): Promise<User> {
  const byTaxId = person.taxId ? await findUserByTaxId(db, person.taxId) : undefined;
  if (byTaxId) return mustBeActive(byTaxId);
  const holders = await holdersOfDocuments(db, person);
  const [holder] = holders;
  if (holders.length === 1 && holder) return mustBeActive(holder);
  // A valid tax id nobody holds (and no document to go by) is a stranger; anything else is unclear.
  if (person.taxId && holders.length === 0) throw new AppError("bankid.failed", { reason: "bankid.no_match" });
  throw new AppError("bankid.failed", { reason: "bankid.not_identified" });
}

/** Records one of a person's identity documents (the demo campus; BankID finds people by them). */
export async function addIdentityDocument(
  db: Db,
  userId: string,
  document: { kind: IdentityDocumentKind; series?: string | undefined; number: string },
): Promise<void> {
  await db
    .insertInto("identity_documents")
    .values({ user_id: userId, ...document })
    .execute();
}
