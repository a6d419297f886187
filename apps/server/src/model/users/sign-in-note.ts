import type { Language } from "@kpi-id/contracts";
import { type QueryCreator, sql } from "kysely";
import type { Database } from "../../platform/db/schema.ts";

export interface SignInNote {
  personId: string;
  /** The language of the sign-in, kept on the person for mail sent without a request of theirs. */
  language: Language;
  now: Date;
}

/**
 * What a finished sign-in notes on the person, as a statement part the sign-in's one statement writes with its
 * session (model/sessions/sign-in-statement.ts): their language and, the first time, when they first signed in.
 * A no-op update once both are current, so a returning person's sign-in rewrites no row of theirs.
 */
export function notePersonSignedIn(query: QueryCreator<Database>, { personId, language, now }: SignInNote) {
  return query
    .updateTable("users")
    .set({ language, first_signed_in_at: sql<Date>`coalesce(first_signed_in_at, ${now})` })
    .where("id", "=", personId)
    .where((eb) => eb.or([eb("language", "is distinct from", language), eb("first_signed_in_at", "is", null)]));
}
