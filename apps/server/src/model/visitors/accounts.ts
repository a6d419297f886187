import { randomBytes } from "node:crypto";
import type { PasswordHasher } from "../../platform/crypto/password.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { createUser } from "../users/service.ts";
import { addHomeIdentity, type HomeIdentity } from "./identities.ts";

export interface NewVisitor {
  name: string;
  email: string | null;
  identity: HomeIdentity;
}

/** "visitor-" and 10 random hex digits: a username that says nothing about the person and is never reused. */
const visitorUsername = () => `visitor-${randomBytes(5).toString("hex")}`;

/**
 * A researcher's own KPI ID account, made from what their home institution released, after they agreed: a person
 * without a password (they sign in at home), an affiliate through their home identity (person_affiliations).
 */
export async function createVisitorAccount(
  db: Db,
  hasher: PasswordHasher,
  visitor: NewVisitor,
  now: Date,
): Promise<User> {
  const work = async (tx: Db) => {
    const person = await createUser(
      tx,
      hasher,
      { username: visitorUsername(), fullName: visitor.name, email: visitor.email ?? undefined },
      undefined,
      {},
      "institution",
    );
    await addHomeIdentity(tx, person.id, visitor.identity, true, now);
    return person;
  };
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
