/// <reference path="./dstu-modules.d.ts" />
// The worker thread of threaded-verifier.ts: the DSTU half of Diia's signature checks (the signature and its
// chain), on the same CAs and signer certificates as the instance's verifier, one check at a time.
import { parentPort, workerData } from "node:worker_threads";
import jkurwa from "jkurwa";
import { JkurwaSignatureVerifier } from "./jkurwa-verifier.ts";

/** What the instance gives the thread: each list's certificates as DER, in the verifier's order. */
export interface CheckThreadData {
  anchors: Uint8Array[];
  intermediates: Uint8Array[];
  signers: Uint8Array[];
}

/** One check asked of the thread; Buffers arrive as Uint8Arrays. */
export interface CheckThreadRequest {
  id: number;
  signature: Uint8Array;
  requestId: string;
  requestDigest?: Uint8Array;
  now: Date;
}

const data = workerData as CheckThreadData;
const certificates = (list: Uint8Array[]) => list.map((der) => jkurwa.Certificate.from_asn1(Buffer.from(der)));
const verifier = new JkurwaSignatureVerifier(
  certificates(data.anchors),
  certificates(data.intermediates),
  undefined,
  certificates(data.signers),
);

parentPort?.on("message", (request: CheckThreadRequest) => {
  try {
    const result = verifier.signatureAndChain({
      signature: Buffer.from(request.signature),
      requestId: request.requestId,
      ...(request.requestDigest ? { requestDigest: Buffer.from(request.requestDigest) } : {}),
      now: request.now,
    });
    parentPort?.postMessage({ id: request.id, result });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
