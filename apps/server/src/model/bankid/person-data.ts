import type { PersonDataArea } from "../../platform/db/person-data.ts";

/**
 * The identity documents BankID finds the person by when a bank sends no tax id. Erasure removes them (the account
 * row stays as a stub, so their `on delete cascade` never fires, and a document must not find an erased person).
 */
export const personData: PersonDataArea = {
  area: "bankid",
  erase: async (db, person) => {
    await db.deleteFrom("identity_documents").where("user_id", "=", person.id).execute();
    return {};
  },
  exportOf: async (db, person) => ({
    identityDocuments: (
      await db
        .selectFrom("identity_documents")
        .select(["kind", "series", "number", "created_at"])
        .where("user_id", "=", person.id)
        .orderBy("created_at")
        .execute()
    ).map((document) => ({
      kind: document.kind,
      series: document.series,
      number: document.number,
      addedAt: document.created_at.toISOString(),
    })),
  }),
  labels: {
    identityDocuments: { uk: "Документи, що посвідчують особу (для BankID)", en: "Identity documents (for BankID)" },
  },
};
