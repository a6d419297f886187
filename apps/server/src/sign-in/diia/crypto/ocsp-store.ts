import { createHash } from "node:crypto";
import jkurwa, { type Certificate } from "jkurwa";
import { type OcspPersistence, ocspWatchForMs } from "../../../model/diia/ocsp-answers.ts";
import type { RevocationStatus } from "./crl-store.ts";
import { issuedBy } from "./jkurwa-verifier.ts";
import {
  certificateKey,
  currentUntil,
  OcspError,
  ocspAddressesOf,
  ocspRequest,
  type VerifiedOcspAnswer,
  verifyOcspResponse,
} from "./ocsp.ts";

interface OcspLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface OcspStoreOptions {
  /** DIIA_OCSP: responder URLs, tried in order; "aia" stands for the certificate's own AIA address(es). */
  responders: string[];
  /** The configured CAs (anchors and intermediates): a signer's issuer must be one of them. */
  authorities: Certificate[];
  /** DIIA_CRL_GRACE_SECONDS: how long an answer past its nextUpdate still counts (the CRLs' rule). */
  graceSeconds: number;
  log: OcspLog;
  /** Certificates watched from the start (DIIA_SIGNER_CERTIFICATES). */
  signers?: Certificate[];
  post?: (url: string, request: Buffer) => Promise<Buffer>;
  persistence?: OcspPersistence | undefined;
  /** Tests only: counts the verifications; the product's is verifyOcspResponse. */
  verify?: typeof verifyOcspResponse;
}

interface Watched {
  signer: Certificate;
  issuer: Certificate;
  answer?: VerifiedOcspAnswer;
  /** The SHA-256 of the bytes `answer` was verified from: the same bytes read back are not verified again. */
  answerDigest?: string;
  lastAttempt: number;
  /** The last callback that named it (configured certificates: always now). */
  seenAt: number;
  /** The last such moment written to the database. */
  savedSeenAt: number;
  configured: boolean;
}

const fetchTimeoutMs = 10_000;
/** A responder that failed for a certificate is not asked again about it sooner. */
const retryAfterMs = 60_000;
/** A certificate named again is noted in the database at most this often (it keeps it watched for 30 days). */
const seenNoteEveryMs = 24 * 3600 * 1000;

const digestOf = (bytes: Buffer) => createHash("sha256").update(bytes).digest("base64");

async function postOcsp(url: string, request: Buffer): Promise<Buffer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/ocsp-request", accept: "application/ocsp-response" },
    body: new Uint8Array(request),
    signal: AbortSignal.timeout(fetchTimeoutMs),
  });
  if (!response.ok) throw new Error(`answered HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/**
 * The last good OCSP answer about each watched signer's certificate, kept in memory and in the database.
 * Answers are fetched only in the background: a callback names its signer (watch), which a refresh soon
 * after asks the responder about; until then the callback is decided by what is held (and the CRLs).
 * An answer is asked for again halfway to its nextUpdate; one that cannot be had keeps the last good answer,
 * which counts until nextUpdate plus the grace.
 */
export class OcspStore {
  readonly #options: OcspStoreOptions;
  readonly #watched = new Map<string, Watched>();
  /** Certificates named since the last refresh, not yet in the database. */
  readonly #unsaved = new Set<string>();
  #kick: (() => void) | undefined;

  constructor(options: OcspStoreOptions) {
    this.#options = options;
    for (const signer of options.signers ?? []) {
      const issuer = this.#issuerOf(signer);
      if (issuer) this.#remember(signer, issuer, Date.now(), true);
    }
  }

  #issuerOf(signer: Certificate): Certificate | undefined {
    return this.#options.authorities.find((ca) => issuedBy(signer, ca));
  }

  /** Watches a certificate (true when it is new here); a known one is only marked seen again. */
  #remember(signer: Certificate, issuer: Certificate, seenAt: number, configured = false): boolean {
    const key = certificateKey(signer);
    const known = this.#watched.get(key);
    if (known) {
      known.seenAt = Math.max(known.seenAt, seenAt);
      if (known.seenAt - known.savedSeenAt >= seenNoteEveryMs) this.#unsaved.add(key);
      return false;
    }
    const lastAttempt = Number.NEGATIVE_INFINITY;
    this.#watched.set(key, { signer, issuer, lastAttempt, seenAt, savedSeenAt: lastAttempt, configured });
    this.#unsaved.add(key);
    return true;
  }

  /** A callback's signer: refreshed in the background from now on (a refresh is asked for, never awaited). */
  watch(signer: Certificate, issuer: Certificate, now: Date): void {
    if (this.#remember(signer, issuer, now.getTime())) this.#kick?.();
  }

  /** What the held answer says, if it is current (within the grace); "unknown" otherwise. */
  status(signer: Certificate, now: Date): RevocationStatus {
    const answer = this.#watched.get(certificateKey(signer))?.answer;
    if (!answer || now.getTime() >= currentUntil(answer) + this.#options.graceSeconds * 1000) return "unknown";
    return answer.status;
  }

  #adopt(key: string, answer: VerifiedOcspAnswer, bytes: Buffer): boolean {
    const watched = this.#watched.get(key);
    if (!watched || (watched.answer && watched.answer.thisUpdate > answer.thisUpdate)) return false;
    watched.answer = answer;
    watched.answerDigest = digestOf(bytes);
    return true;
  }

  #respondersFor(signer: Certificate): string[] {
    return this.#options.responders.flatMap((entry) => (entry === "aia" ? ocspAddressesOf(signer) : [entry]));
  }

  async #fetchOne(key: string, watched: Watched, now: Date): Promise<void> {
    const { log, post = postOcsp, persistence, verify = verifyOcspResponse } = this.#options;
    watched.lastAttempt = now.getTime();
    const serial = watched.signer.serial.toString(16);
    for (const responder of this.#respondersFor(watched.signer)) {
      try {
        const bytes = await post(responder, ocspRequest(watched.signer));
        const answer = verify(bytes, watched.signer, watched.issuer, now);
        if (this.#adopt(key, answer, bytes)) await persistence?.save(key, responder, bytes, answer, now);
        log.info({ responder, serial, status: answer.status }, "Diia OCSP answer loaded");
        return;
      } catch (error) {
        const reason = error instanceof OcspError ? `refused: it ${error.message}` : `unavailable: ${String(error)}`;
        log.error({ responder, serial }, `Diia OCSP answer ${reason}; the last good one (if any) is kept`);
      }
    }
  }

  /**
   * Takes the certificates and answers other instances stored, each answer new here verified. An answer this
   * instance holds already (the same bytes) is not: every refresh, once a minute, reads every certificate watched
   * in the last 30 days, and parsing each and checking its answer's DSTU signature again in JavaScript cost about
   * 32 ms of CPU apiece: 5 minutes of CPU a minute for 10,000 people who signed in with Diia that month.
   */
  async #syncStored(now: Date): Promise<void> {
    const { log, persistence, verify = verifyOcspResponse } = this.#options;
    if (!persistence) return;
    try {
      for (const key of this.#unsaved) {
        const watched = this.#watched.get(key);
        const seenAt = watched?.configured ? now.getTime() : (watched?.seenAt ?? 0);
        if (watched) await persistence.watch(key, watched.signer.as_asn1(), new Date(seenAt));
        if (watched) watched.savedSeenAt = seenAt;
        this.#unsaved.delete(key);
      }
      for (const stored of await persistence.loadWatched(new Date(now.getTime() - ocspWatchForMs))) {
        try {
          const known = this.#watched.get(stored.certificateKey);
          const signer = known?.signer ?? jkurwa.Certificate.from_asn1(stored.certificate);
          const issuer = known?.issuer ?? this.#issuerOf(signer);
          if (!issuer) continue;
          if (this.#remember(signer, issuer, stored.lastSeenAt.getTime())) this.#unsaved.delete(stored.certificateKey);
          const watched = this.#watched.get(stored.certificateKey);
          if (watched) watched.savedSeenAt = Math.max(watched.savedSeenAt, stored.lastSeenAt.getTime());
          if (stored.answer && watched?.answerDigest !== digestOf(stored.answer)) {
            this.#adopt(stored.certificateKey, verify(stored.answer, signer, issuer, now), stored.answer);
          }
        } catch (error) {
          log.error({ certificate: stored.certificateKey }, `Diia OCSP stored answer refused: ${String(error)}`);
        }
      }
    } catch (error) {
      log.error({}, `Diia OCSP stored answers unreadable: ${String(error)}`);
    }
  }

  /** Whether a certificate's answer should be asked for again: none held, or past half its lifetime. */
  #isDue(watched: Watched, now: Date): boolean {
    if (now.getTime() - watched.lastAttempt < retryAfterMs) return false;
    const answer = watched.answer;
    if (!answer) return true;
    return now.getTime() >= answer.thisUpdate + (currentUntil(answer) - answer.thisUpdate) / 2;
  }

  /** Shares with the database, forgets what no callback named for 30 days, then asks about what is due. */
  async refresh(now: Date): Promise<void> {
    await this.#syncStored(now);
    for (const [key, watched] of this.#watched)
      if (!watched.configured && watched.seenAt < now.getTime() - ocspWatchForMs) this.#watched.delete(key);
    const due = [...this.#watched].filter(([, watched]) => this.#isDue(watched, now));
    await Promise.all(due.map(([key, watched]) => this.#fetchOne(key, watched, now)));
  }

  /** Refreshes every `everyMs` and soon after a callback names a new certificate; returns the stop function. */
  startBackgroundRefresh(clock: () => Date, everyMs = 60_000): () => void {
    // One refresh at a time: a kick while one runs is covered by the next interval.
    let busy = false;
    const run = () => {
      if (busy) return;
      busy = true;
      this.refresh(clock())
        .catch((error: unknown) => this.#options.log.error({}, `Diia OCSP refresh failed: ${String(error)}`))
        .finally(() => {
          busy = false;
        });
    };
    const timer = setInterval(run, everyMs);
    timer.unref();
    this.#kick = () => setTimeout(run, 0).unref();
    return () => {
      clearInterval(timer);
      this.#kick = undefined;
    };
  }

  /** The watched certificates (serial numbers) with no answer or one past its nextUpdate. */
  staleCertificates(now: Date): string[] {
    return [...this.#watched.values()]
      .filter(({ answer }) => !answer || now.getTime() >= currentUntil(answer))
      .map(({ signer }) => signer.serial.toString(16));
  }

  /** How many certificates are watched. */
  get size(): number {
    return this.#watched.size;
  }
}
