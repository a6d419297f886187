/// <reference types="@kpi-id/server/dstu-modules" />
// The stand-in CAs' OCSP responder (RFC 6960 over plain http, as the qualified CAs publish theirs): it
// answers each CertID of a request good or revoked, signed by the CA itself or by an OCSP signer it
// delegated, in DSTU 4145 over GOST 34.311 as a Ukrainian responder signs.
import type { FastifyInstance } from "fastify";
import gost89 from "gost89";
import { BasicOCSPResponse, OCSPRequest, OCSPResponse, ResponseData } from "jkurwa/lib/spec/rfc2560-ocsp.js";
import { der, type Party } from "./pki.ts";

/** A CertID as jkurwa's model decodes it; echoed back unchanged in the answer. */
interface CertIdObject {
  serialNumber: { toString(base: number): string };
  issuerKeyHash: Buffer;
  [field: string]: unknown;
}

interface RequestObject {
  tbsRequest: { requestList: { reqCert: CertIdObject }[] };
}

export interface OcspAuthority {
  ca: Party;
  /** A delegated OCSP signer (id-kp-OCSPSigning) to sign with instead of the CA's key; its certificate travels along. */
  delegated?: Party;
  /** Serial numbers (lower-case hex) the CA has revoked. */
  revoked: () => Set<string>;
}

const basicResponseType = [1, 3, 6, 1, 5, 5, 7, 48, 1, 1];
/** How long an answer stays current; the product asks again halfway. */
const answerLifetimeMs = 60 * 60 * 1000;

function unauthorized(): Buffer {
  return OCSPResponse.encode({ responseStatus: "unauthorized" }, "der");
}

/** The signed answer to one OCSP request, or "unauthorized" when it names no certificate of a known CA. */
export function answerOcspRequest(request: Buffer, authorities: OcspAuthority[], now: number): Buffer {
  let decoded: RequestObject;
  try {
    decoded = OCSPRequest.decode(request, "der") as RequestObject;
  } catch {
    return OCSPResponse.encode({ responseStatus: "malformedRequest" }, "der");
  }
  const [first] = decoded.tbsRequest.requestList;
  const authority = authorities.find(
    ({ ca }) => first && ca.certificate.extension.subjectKeyIdentifier?.equals(first.reqCert.issuerKeyHash),
  );
  if (!authority) return unauthorized();
  const revoked = authority.revoked();
  const responses = decoded.tbsRequest.requestList.map(({ reqCert }) => ({
    certID: reqCert,
    certStatus: revoked.has(reqCert.serialNumber.toString(16))
      ? { type: "revoked", value: { revocationTime: now - answerLifetimeMs } }
      : { type: "good", value: null },
    thisUpdate: now,
    nextUpdate: now + answerLifetimeMs,
  }));
  return signAnswer(authority, responses, now);
}

/** Wraps single responses in a BasicOCSPResponse signed as the authority signs, inside an OCSPResponse. */
export function signAnswer(authority: Pick<OcspAuthority, "ca" | "delegated">, responses: unknown[], now: number) {
  const signer = authority.delegated ?? authority.ca;
  const tbsResponseData = {
    responderID: { type: "byName", value: signer.certificate.ob.tbsCertificate.subject },
    producedAt: now,
    responses,
  };
  const signature = signer.key.sign(gost89.gosthash(ResponseData.encode(tbsResponseData, "der")), "le");
  const basic = BasicOCSPResponse.encode(
    {
      tbsResponseData,
      signatureAlgorithm: { algorithm: signer.key.algorithm },
      signature: { unused: 0, data: der(0x04, signature) },
      ...(authority.delegated ? { certs: [authority.delegated.certificate.ob] } : {}),
    },
    "der",
  );
  return OCSPResponse.encode(
    { responseStatus: "successful", responseBytes: { responseType: basicResponseType, response: basic } },
    "der",
  );
}

/** POST /pki/ocsp (application/ocsp-request), as RFC 6960 §A.1 has it. */
export function registerOcspResponder(app: FastifyInstance, authorities: OcspAuthority[]): void {
  app.addContentTypeParser("application/ocsp-request", { parseAs: "buffer" }, (_request, body, done) =>
    done(null, body),
  );
  app.post("/pki/ocsp", async (request, reply) => {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    return reply.type("application/ocsp-response").send(answerOcspRequest(body, authorities, Date.now()));
  });
}
