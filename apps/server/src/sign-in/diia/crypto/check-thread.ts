/// <reference path="./dstu-modules.d.ts" />
// The worker thread of threaded-verifier.ts: the DSTU half of Diia's signature checks (the signature and its
// chain), on the same CAs and signer certificates as the instance's verifier, one check at a time.
import { parentPort, workerData } from "node:worker_threads";
import jkurwa from "jkurwa";
import { answerQuestions } from "../../../platform/crypto/worker-line-thread.ts";
import { JkurwaSignatureVerifier } from "./jkurwa-verifier.ts";
import type { SignatureFailure } from "./verifier.ts";

/** What the instance gives the thread: each list's certificates as DER, in the verifier's order. */
export interface CheckThreadData {
  anchors: Uint8Array[];
  intermediates: Uint8Array[];
  signers: Uint8Array[];
}

/** One check asked of the thread; Buffers arrive as Uint8Arrays. */
export interface CheckThreadRequest {
  signature: Uint8Array;
  requestId: string;
  requestDigest?: Uint8Array;
  now: Date;
}

/** The signature and chain's outcome: a failure, or the index of the signer's issuer for revocation. */
export type CheckThreadResult = { ok: false; reason: SignatureFailure } | { ok: true; issuer: number };

const data = workerData as CheckThreadData;
const certificates = (list: Uint8Array[]) => list.map((der) => jkurwa.Certificate.from_asn1(Buffer.from(der)));
const verifier = new JkurwaSignatureVerifier(
  certificates(data.anchors),
  certificates(data.intermediates),
  undefined,
  certificates(data.signers),
);

answerQuestions<CheckThreadRequest, CheckThreadResult>(parentPort, (request) =>
  verifier.signatureAndChain({
    signature: Buffer.from(request.signature),
    requestId: request.requestId,
    ...(request.requestDigest ? { requestDigest: Buffer.from(request.requestDigest) } : {}),
    now: request.now,
  }),
);
