import type { WatchedRevocationList } from "@kpi-id/contracts";
import { type StaleOcspAnswer, staleOcspAnswers } from "../../model/diia/ocsp-answers.ts";
import { staleRevocationLists } from "../../model/diia/revocation-lists.ts";
import type { Config } from "../../platform/config/index.ts";
import type { Db } from "../../platform/db/schema.ts";
import type { CheckResult } from "./checks.ts";

type DiiaSettings = NonNullable<Config["diia"]>;
type Part = Omit<CheckResult, "check">;

const rank = { ok: 0, warn: 1, fail: 2 } as const;

/**
 * The CRLs of Diia's CAs as the running instances last stored them: a list past its nextUpdate still
 * counts for DIIA_CRL_GRACE_SECONDS, after which every Diia sign-in by that CA's people is refused.
 */
async function crlPart(db: Db, diia: DiiaSettings, now: Date): Promise<Part | undefined> {
  if (diia.crls.length === 0) return undefined;
  const stale = await staleRevocationLists(db, diia.crls, now);
  if (stale.length === 0) return { status: "ok", message: `${diia.crls.length} CRL(s) current` };
  const graceMs = diia.crlGraceSeconds * 1000;
  const refusing = stale.filter(({ nextUpdate }) => !nextUpdate || now.getTime() >= nextUpdate.getTime() + graceMs);
  const describe = ({ source, nextUpdate }: { source: string; nextUpdate: Date | undefined }) =>
    `${source} (${nextUpdate ? `stale since ${nextUpdate.toISOString()}` : "never loaded"})`;
  return {
    status: refusing.length > 0 ? "fail" : "warn",
    message:
      refusing.length > 0
        ? `Diia sign-ins are refused for want of a current CRL: ${refusing.map(describe).join(", ")}`
        : `CRL past its nextUpdate, still counted for the grace: ${stale.map(describe).join(", ")}`,
    fix: "check that the server reaches each DIIA_CRLS address (see the log lines 'Diia CRL …')",
  };
}

/** Past nextUpdate and the grace: the answer no longer counts (the CRLs, if any, decide alone). */
function pastGrace(answer: StaleOcspAnswer, diia: DiiaSettings, now: Date): boolean {
  return !answer.nextUpdate || now.getTime() >= answer.nextUpdate.getTime() + diia.crlGraceSeconds * 1000;
}

/**
 * The OCSP answers about the signers' certificates the instances watch. A stale one is a warning while
 * CRLs are configured (they decide for that signer); without CRLs, one past the grace refuses its signer.
 */
async function ocspPart(db: Db, diia: DiiaSettings, now: Date): Promise<Part | undefined> {
  if (diia.ocsp.length === 0) return undefined;
  const { watched, stale } = await staleOcspAnswers(db, now);
  if (stale.length === 0) return { status: "ok", message: `${watched} OCSP answer(s) current` };
  const lapsed = stale.filter((answer) => pastGrace(answer, diia, now)).length;
  const refusing = lapsed > 0 && diia.crls.length === 0;
  const responders = [...new Set(stale.map((answer) => answer.responder ?? "never answered"))].join(", ");
  return {
    status: refusing ? "fail" : "warn",
    message: refusing
      ? `${lapsed} of ${watched} signer(s) refused for want of a current OCSP answer (${responders})`
      : `${stale.length} of ${watched} OCSP answer(s) missing or past nextUpdate (${responders}); ${
          diia.crls.length > 0 ? "the CRLs decide for them" : "still counted for the grace"
        }`,
    fix: "check that the server reaches each DIIA_OCSP responder (see the log lines 'Diia OCSP …')",
  };
}

/** The `diia revocation` line: the CRLs and the OCSP answers, the worse of the two deciding the status. */
export async function checkDiiaRevocation(db: Db, config: Config, now: Date): Promise<CheckResult | undefined> {
  const diia = config.diia;
  if (!diia) return undefined;
  const parts = [await crlPart(db, diia, now), await ocspPart(db, diia, now)].filter((part) => part !== undefined);
  if (parts.length === 0) return undefined;
  const status = parts.reduce<Part["status"]>(
    (worst, part) => (rank[part.status] > rank[worst] ? part.status : worst),
    "ok",
  );
  const fixes = parts.flatMap((part) => (part.fix && part.status !== "ok" ? [part.fix] : []));
  return {
    check: "diia revocation",
    status,
    message: parts.map((part) => part.message).join("; "),
    ...(fixes.length > 0 ? { fix: fixes.join("; ") } : {}),
  };
}

/** The OCSP answers as one console entry: "stale" while any is past nextUpdate, "refusing" as doctor fails. */
async function describeOcsp(db: Db, diia: DiiaSettings, now: Date): Promise<WatchedRevocationList[]> {
  if (diia.ocsp.length === 0) return [];
  const { watched, stale } = await staleOcspAnswers(db, now);
  if (stale.length === 0) return [{ source: `OCSP (${watched} answer(s))`, nextUpdate: null, state: "current" }];
  const dates = stale.flatMap((answer) => (answer.nextUpdate ? [answer.nextUpdate.getTime()] : []));
  const refusing = diia.crls.length === 0 && stale.some((answer) => pastGrace(answer, diia, now));
  return [
    {
      source: `OCSP: ${stale.length} of ${watched} answer(s) stale (${diia.ocsp.join(", ")})`,
      nextUpdate: dates.length === stale.length ? new Date(Math.min(...dates)).toISOString() : null,
      state: refusing ? "refusing" : "stale",
    },
  ];
}

/** Every DIIA_CRLS source's state, and the OCSP answers', for the console's notice; undefined when neither is set. */
export async function describeDiiaRevocationLists(
  db: Db,
  config: Config,
  now: Date,
): Promise<WatchedRevocationList[] | undefined> {
  const diia = config.diia;
  if (!diia || (diia.crls.length === 0 && diia.ocsp.length === 0)) return undefined;
  const stale = new Map((await staleRevocationLists(db, diia.crls, now)).map((each) => [each.source, each.nextUpdate]));
  const graceMs = diia.crlGraceSeconds * 1000;
  const lists = diia.crls.map((source): WatchedRevocationList => {
    if (!stale.has(source)) return { source, nextUpdate: null, state: "current" };
    const nextUpdate = stale.get(source);
    const refusing = !nextUpdate || now.getTime() >= nextUpdate.getTime() + graceMs;
    return { source, nextUpdate: nextUpdate?.toISOString() ?? null, state: refusing ? "refusing" : "stale" };
  });
  return [...lists, ...(await describeOcsp(db, diia, now))];
}
