import type { WatchedRevocationList } from "@kpi-id/contracts";
import { staleRevocationLists } from "../../model/diia/revocation-lists.ts";
import type { Config } from "../../platform/config/index.ts";
import type { Db } from "../../platform/db/schema.ts";
import type { CheckResult } from "./checks.ts";

/**
 * The CRLs of Diia's CAs as the running instances last stored them: a list past its nextUpdate still
 * counts for DIIA_CRL_GRACE_SECONDS, after which every Diia sign-in by that CA's people is refused.
 */
export async function checkDiiaRevocation(db: Db, config: Config, now: Date): Promise<CheckResult | undefined> {
  const diia = config.diia;
  if (!diia || diia.crls.length === 0) return undefined;
  const stale = await staleRevocationLists(db, diia.crls, now);
  if (stale.length === 0) {
    return { check: "diia revocation", status: "ok", message: `${diia.crls.length} CRL(s) current` };
  }
  const graceMs = diia.crlGraceSeconds * 1000;
  const refusing = stale.filter(({ nextUpdate }) => !nextUpdate || now.getTime() >= nextUpdate.getTime() + graceMs);
  const describe = ({ source, nextUpdate }: { source: string; nextUpdate: Date | undefined }) =>
    `${source} (${nextUpdate ? `stale since ${nextUpdate.toISOString()}` : "never loaded"})`;
  return {
    check: "diia revocation",
    status: refusing.length > 0 ? "fail" : "warn",
    message:
      refusing.length > 0
        ? `Diia sign-ins are refused for want of a current CRL: ${refusing.map(describe).join(", ")}`
        : `CRL past its nextUpdate, still counted for the grace: ${stale.map(describe).join(", ")}`,
    fix: "check that the server reaches each DIIA_CRLS address (see the log lines 'Diia CRL …')",
  };
}

/** Every DIIA_CRLS source's state for the console (its notice names the stale ones); undefined when unset. */
export async function describeDiiaRevocationLists(
  db: Db,
  config: Config,
  now: Date,
): Promise<WatchedRevocationList[] | undefined> {
  const diia = config.diia;
  if (!diia || diia.crls.length === 0) return undefined;
  const stale = new Map((await staleRevocationLists(db, diia.crls, now)).map((each) => [each.source, each.nextUpdate]));
  const graceMs = diia.crlGraceSeconds * 1000;
  return diia.crls.map((source) => {
    if (!stale.has(source)) return { source, nextUpdate: null, state: "current" };
    const nextUpdate = stale.get(source);
    const refusing = !nextUpdate || now.getTime() >= nextUpdate.getTime() + graceMs;
    return { source, nextUpdate: nextUpdate?.toISOString() ?? null, state: refusing ? "refusing" : "stale" };
  });
}
