import type { Db } from "../../platform/db/schema.ts";

/** A certificate no callback named for this long is no longer refreshed (nor counted by doctor). */
export const ocspWatchForMs = 30 * 24 * 3600 * 1000;
/** How long an OCSP answer without nextUpdate counts after its thisUpdate (RFC 5019 lets a responder omit it). */
export const ocspAnswerWithoutNextUpdateMs = 60 * 60 * 1000;

/** What the table keeps of a verified OCSP answer besides its bytes (sign-in/diia/crypto/ocsp.ts has it). */
interface OcspValidity {
  status: string;
  thisUpdate: number;
  nextUpdate: number | undefined;
}

/** A watched certificate as stored: its DER and, once one was had, the last good answer's bytes. */
export interface StoredOcspAnswer {
  certificateKey: string;
  certificate: Buffer;
  lastSeenAt: Date;
  answer: Buffer | undefined;
}

/** Where the watched certificates and their last good OCSP answers are kept, for every instance and `doctor`. */
export interface OcspPersistence {
  /** Notes that a callback (or the configuration) named this certificate: it is refreshed from now on. */
  watch(certificateKey: string, certificate: Buffer, seenAt: Date): Promise<void>;
  save(
    certificateKey: string,
    responder: string,
    answer: Buffer,
    validity: OcspValidity,
    fetchedAt: Date,
  ): Promise<void>;
  /** The certificates seen since `since`, each with its stored answer. */
  loadWatched(since: Date): Promise<StoredOcspAnswer[]>;
}

/** The `diia_ocsp_answers` table; a newer answer (by thisUpdate) replaces an older one, never the reverse. */
export function databaseOcspPersistence(db: Db): OcspPersistence {
  return {
    async watch(certificateKey, certificate, seenAt) {
      await db
        .insertInto("diia_ocsp_answers")
        .values({ certificate_key: certificateKey, certificate, last_seen_at: seenAt })
        .onConflict((conflict) =>
          conflict
            .column("certificate_key")
            .doUpdateSet({ last_seen_at: seenAt })
            .whereRef("diia_ocsp_answers.last_seen_at", "<", "excluded.last_seen_at"),
        )
        .execute();
    },
    async save(certificateKey, responder, answer, validity, fetchedAt) {
      const thisUpdate = new Date(validity.thisUpdate);
      await db
        .updateTable("diia_ocsp_answers")
        .set({
          responder,
          answer,
          status: validity.status,
          this_update: thisUpdate,
          next_update: validity.nextUpdate === undefined ? null : new Date(validity.nextUpdate),
          fetched_at: fetchedAt,
        })
        .where("certificate_key", "=", certificateKey)
        .where((where) => where.or([where("this_update", "is", null), where("this_update", "<=", thisUpdate)]))
        .execute();
    },
    async loadWatched(since) {
      const rows = await db
        .selectFrom("diia_ocsp_answers")
        .select(["certificate_key", "certificate", "answer", "last_seen_at"])
        .where("last_seen_at", ">=", since)
        .execute();
      return rows.map((row) => ({
        certificateKey: row.certificate_key,
        certificate: Buffer.from(row.certificate),
        lastSeenAt: row.last_seen_at,
        answer: row.answer ? Buffer.from(row.answer) : undefined,
      }));
    },
  };
}

/** A watched certificate whose answer is missing or past its nextUpdate (doctor, the console). */
export interface StaleOcspAnswer {
  certificateKey: string;
  responder: string | undefined;
  nextUpdate: Date | undefined;
}

/**
 * The watched certificates whose stored answer is missing or past nextUpdate at `now` (an answer without
 * nextUpdate counts for ocspAnswerWithoutNextUpdateMs after its thisUpdate), and how many are watched.
 */
export async function staleOcspAnswers(db: Db, now: Date): Promise<{ watched: number; stale: StaleOcspAnswer[] }> {
  const since = new Date(now.getTime() - ocspWatchForMs);
  const withoutNextUpdateMs = ocspAnswerWithoutNextUpdateMs;
  const rows = await db
    .selectFrom("diia_ocsp_answers")
    .select(["certificate_key", "responder", "this_update", "next_update"])
    .where("last_seen_at", ">=", since)
    .execute();
  const until = (row: (typeof rows)[number]) =>
    row.next_update ?? (row.this_update ? new Date(row.this_update.getTime() + withoutNextUpdateMs) : undefined);
  const stale = rows
    .filter((row) => {
      const end = until(row);
      return end === undefined || now >= end;
    })
    .map((row) => ({
      certificateKey: row.certificate_key,
      responder: row.responder ?? undefined,
      nextUpdate: until(row),
    }));
  return { watched: rows.length, stale };
}
