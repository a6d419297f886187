import type { PersonDataArea } from "../../platform/db/person-data.ts";
import type { Db } from "../../platform/db/schema.ts";
import { listApplicationPasswords } from "./passwords.ts";
import { usesKeptPerPassword } from "./uses.ts";

/**
 * Erasure: the uses first, then the passwords. The rows would outlive an erased person otherwise: erasure keeps the
 * account row as a stub, so the foreign keys' `on delete cascade` never fires.
 */
async function removeApplicationPasswordsOf(db: Db, userId: string): Promise<number> {
  await db.deleteFrom("ldap_uses").where("user_id", "=", userId).execute();
  const removed = await db.deleteFrom("ldap_passwords").where("user_id", "=", userId).executeTakeFirst();
  return Number(removed.numDeletedRows);
}

/**
 * LDAP application passwords and their latest uses (which client, from where). The download shows each password's
 * name and every use kept, never the secret's hash. A person's uidNumber (ldap_posix_numbers) stays on purpose: it
 * names no one and is never given to anyone else.
 */
export const personData: PersonDataArea = {
  area: "ldap",
  erase: async (db, person) => ({ applicationPasswords: await removeApplicationPasswordsOf(db, person.id) }),
  exportOf: async (db, person) => ({
    ldapPasswords: (await listApplicationPasswords(db, person.id, usesKeptPerPassword)).map((password) => ({
      name: password.name,
      client: password.clientTitle,
      createdAt: password.createdAt.toISOString(),
      lastUsedAt: password.lastUsedAt?.toISOString() ?? null,
      uses: password.uses.map((use) => ({ usedAt: use.usedAt.toISOString(), client: use.client, address: use.peer })),
    })),
  }),
  labels: {
    ldapPasswords: {
      uk: "Паролі застосунків для LDAP, без самих паролів, з останніми використаннями",
      en: "LDAP application passwords, without the passwords, with their latest uses",
    },
  },
};
