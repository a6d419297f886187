import { readFile } from "node:fs/promises";
import type { Certificate } from "jkurwa";
import type { CrlPersistence } from "../../../model/diia/revocation-lists.ts";
import { CrlError, type VerifiedCrl, verifyCrl } from "./crl.ts";

/** What the CRLs say of one signer's certificate; "unknown" is refused (fail closed). */
export type RevocationStatus = "good" | "revoked" | "unknown";

export interface RevocationChecker {
  status(signer: Certificate, issuer: Certificate, now: Date): RevocationStatus;
}

interface CrlLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface CrlStoreOptions {
  /** DIIA_CRLS: file paths or URLs. */
  sources: string[];
  /** The configured CAs (anchors and intermediates): a CRL must be signed by one of them. */
  authorities: Certificate[];
  graceSeconds: number;
  log: CrlLog;
  load?: (source: string) => Promise<Buffer>;
  /** The last good copies shared by every instance; each is verified again before it counts. */
  persistence?: CrlPersistence | undefined;
}

const fetchTimeoutMs = 10_000;
/** A failing source is not asked again on every sign-in. */
const retryAfterMs = 60_000;
/** How often the background refresh looks for a list past its nextUpdate. */
export const backgroundRefreshMs = 60_000;

async function loadCrlSource(source: string): Promise<Buffer> {
  if (!/^https?:\/\//i.test(source)) return readFile(source);
  const response = await fetch(source, { signal: AbortSignal.timeout(fetchTimeoutMs) });
  if (!response.ok) throw new Error(`answered HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/**
 * The configured CRLs, kept in memory: loaded at start and again once one is
 * past its nextUpdate. A source that fails keeps its last good CRL, which
 * counts until nextUpdate plus the grace; after that its CA's signers are
 * refused until a fresh CRL loads.
 */
export class CrlStore implements RevocationChecker {
  readonly #options: CrlStoreOptions;
  readonly #bySource = new Map<string, VerifiedCrl>();
  #lastAttempt = Number.NEGATIVE_INFINITY;

  constructor(options: CrlStoreOptions) {
    this.#options = options;
  }

  /** Keeps `crl` unless what is held already is as new; true when it was taken. */
  #adopt(source: string, crl: VerifiedCrl): boolean {
    const held = this.#bySource.get(source);
    if (held && held.thisUpdate > crl.thisUpdate) return false;
    this.#bySource.set(source, crl);
    return true;
  }

  async #loadOne(source: string, now: Date): Promise<void> {
    const { authorities, log, load = loadCrlSource, persistence } = this.#options;
    try {
      const der = await load(source);
      const crl = verifyCrl(der, authorities);
      this.#adopt(source, crl);
      log.info({ source, revoked: crl.revokedSerials.size }, "Diia CRL loaded");
      await persistence?.save(source, der, crl, now);
    } catch (error) {
      const reason = error instanceof CrlError ? `refused: it ${error.message}` : `unavailable: ${String(error)}`;
      log.error({ source }, `Diia CRL ${reason}; the last good one (if any) is kept`);
    }
  }

  /** Takes the copies other instances stored, each checked against the CAs as if fetched. */
  async #adoptStored(): Promise<void> {
    const { authorities, log, persistence, sources } = this.#options;
    if (!persistence) return;
    try {
      for (const { source, der } of await persistence.loadAll()) {
        if (!sources.includes(source)) continue;
        try {
          this.#adopt(source, verifyCrl(der, authorities));
        } catch (error) {
          log.error({ source }, `Diia CRL stored copy refused: ${String(error)}`);
        }
      }
    } catch (error) {
      log.error({}, `Diia CRL stored copies unreadable: ${String(error)}`);
    }
  }

  /** Takes the stored copies, then loads every source now. */
  async refresh(now: Date): Promise<void> {
    this.#lastAttempt = now.getTime();
    await this.#adoptStored();
    await Promise.all(this.#options.sources.map((source) => this.#loadOne(source, now)));
  }

  /**
   * Refreshes in the background, never inside a sign-in: a slow or unreachable CA then delays no
   * callback. Returns the function that stops it.
   */
  startBackgroundRefresh(clock: () => Date, everyMs = backgroundRefreshMs): () => void {
    const timer = setInterval(() => {
      this.refreshIfDue(clock()).catch((error: unknown) =>
        this.#options.log.error({}, `Diia CRL refresh failed: ${String(error)}`),
      );
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** The sources with no list, or whose list is past its nextUpdate (sign-ins still count it for the grace). */
  staleSources(now: Date): string[] {
    return this.#options.sources.filter((source) => {
      const crl = this.#bySource.get(source);
      return crl?.nextUpdate === undefined || now.getTime() >= crl.nextUpdate;
    });
  }

  #isDue(now: Date): boolean {
    if (now.getTime() - this.#lastAttempt < retryAfterMs) return false;
    return this.staleSources(now).length > 0;
  }

  /** Loads again when a CRL is missing or past its nextUpdate (at most once a minute). */
  async refreshIfDue(now: Date): Promise<void> {
    if (this.#isDue(now)) await this.refresh(now);
  }

  #current(issuer: Certificate, now: Date): VerifiedCrl | undefined {
    const graceMs = this.#options.graceSeconds * 1000;
    const usable = [...this.#bySource.values()].filter(
      (crl) => crl.issuer === issuer && crl.nextUpdate !== undefined && now.getTime() < crl.nextUpdate + graceMs,
    );
    return usable.sort((left, right) => right.thisUpdate - left.thisUpdate)[0];
  }

  status(signer: Certificate, issuer: Certificate, now: Date): RevocationStatus {
    const crl = this.#current(issuer, now);
    if (!crl) return "unknown";
    return crl.revokedSerials.has(signer.serial.toString(16)) ? "revoked" : "good";
  }
}
