import { readFile } from "node:fs/promises";
import type { Certificate } from "jkurwa";
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
}

const fetchTimeoutMs = 10_000;
/** A failing source is not asked again on every sign-in. */
const retryAfterMs = 60_000;

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

  async #loadOne(source: string): Promise<void> {
    const { authorities, log, load = loadCrlSource } = this.#options;
    try {
      const crl = verifyCrl(await load(source), authorities);
      this.#bySource.set(source, crl);
      log.info({ source, revoked: crl.revokedSerials.size }, "Diia CRL loaded");
    } catch (error) {
      const reason = error instanceof CrlError ? `refused: it ${error.message}` : `unavailable: ${String(error)}`;
      log.error({ source }, `Diia CRL ${reason}; the last good one (if any) is kept`);
    }
  }

  /** Loads every source now. */
  async refresh(now: Date): Promise<void> {
    this.#lastAttempt = now.getTime();
    await Promise.all(this.#options.sources.map((source) => this.#loadOne(source)));
  }

  #isDue(now: Date): boolean {
    if (now.getTime() - this.#lastAttempt < retryAfterMs) return false;
    return this.#options.sources.some((source) => {
      const crl = this.#bySource.get(source);
      return crl?.nextUpdate === undefined || now.getTime() >= crl.nextUpdate;
    });
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
