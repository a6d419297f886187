import { text, UNSTORABLE_TEXT_MESSAGE } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { audit } from "../../platform/audit/record.ts";
import { AppError } from "../../platform/errors.ts";
import type { DiiaSignatureVerifier, SignatureFailure } from "./crypto/verifier.ts";
import { MalformedMultipartError, parseMultipart } from "./multipart.ts";
import { findDiiaRequestByHash, settleDiiaRequest } from "./queries.ts";

const base64 = /^[A-Za-z0-9+/=\s_-]+$/;

/** `encodeData`: base64 of JSON `{requestId, signature}`; requestId is the hash Diia was given. */
const encodeDataSchema = z.object({
  requestId: text().min(1).max(200),
  signature: text().min(1).max(200_000).regex(base64),
});

export interface DiiaCallback {
  hashedRequestId: string;
  signature: Buffer;
}

/** Why a callback was refused; recorded in the audit trail, never with the tax id. */
type Refusal = "malformed" | "unknown_request" | "expired" | "replay" | "unknown_person" | SignatureFailure;

function refuse(request: FastifyRequest, reason: Refusal, userId?: string) {
  return audit(request, { type: "sign_in", result: "failure", authMethod: "DIIA", reason: `diia.${reason}`, userId });
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" ? value : undefined;
}

/** Text PostgreSQL cannot store gets the same answer as anywhere else; other bad parts are just malformed. */
function refuseUnstorable(error: z.ZodError): undefined {
  if (error.issues.some((issue) => issue.message === UNSTORABLE_TEXT_MESSAGE)) {
    throw new AppError("request.unstorable_text");
  }
  return undefined;
}

/** Reads the `encodeData` part; undefined when anything about the body is off. */
export function readCallback(request: FastifyRequest): DiiaCallback | undefined {
  try {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const part = parseMultipart(body, header(request, "content-type")).find((each) => each.name === "encodeData");
    if (!part) return undefined;
    const json: unknown = JSON.parse(Buffer.from(part.body.toString("ascii").trim(), "base64").toString("utf8"));
    const parsed = encodeDataSchema.safeParse(json);
    if (!parsed.success) return refuseUnstorable(parsed.error);
    // Diia also delivers document signings to partners; only a delivery that says it is a Diia ID
    // sign-in belongs here (a missing header is refused too: Diia always sends it).
    if (header(request, "x-diia-id-action") !== "auth") return undefined;
    const traceId = header(request, "x-document-request-trace-id");
    // The trace header carries the same hashed id; a mismatch is a forged or mixed-up delivery.
    if (traceId !== undefined && traceId !== parsed.data.requestId) return undefined;
    return { hashedRequestId: parsed.data.requestId, signature: Buffer.from(parsed.data.signature, "base64") };
  } catch (error) {
    if (error instanceof MalformedMultipartError || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

export interface CallbackDependencies {
  verifier: DiiaSignatureVerifier;
  findUserIdByTaxId(taxId: string): Promise<string | undefined>;
  now: Date;
}

/**
 * Diia's delivery of a signed Diia ID sign-in. Every refusal is audited and
 * answered with a stable error; the request it names (if any) is settled once.
 */
export async function acceptCallback(request: FastifyRequest, deps: CallbackDependencies): Promise<void> {
  const { db } = request.server;
  const callback = readCallback(request);
  if (!callback) {
    await refuse(request, "malformed");
    throw new AppError("diia.failed");
  }
  const row = await findDiiaRequestByHash(db, callback.hashedRequestId);
  if (!row) {
    await refuse(request, "unknown_request");
    throw new AppError("diia.request_not_found");
  }
  if (row.status !== "Processing") {
    await refuse(request, "replay");
    throw new AppError("diia.failed");
  }
  if (deps.now >= row.expires_at) {
    await settleDiiaRequest(db, row.id, { status: "Expired", failureCode: "expired" }, deps.now);
    await refuse(request, "expired");
    throw new AppError("diia.request_not_found");
  }
  const check = deps.verifier.verify({ signature: callback.signature, requestId: row.id, now: deps.now });
  if (!check.ok) {
    await settleDiiaRequest(db, row.id, { status: "Failed", failureCode: check.reason }, deps.now);
    await refuse(request, check.reason);
    throw new AppError("diia.failed");
  }
  const userId = await deps.findUserIdByTaxId(check.signer.taxId);
  if (!userId) {
    await settleDiiaRequest(db, row.id, { status: "Failed", failureCode: "unknown_person" }, deps.now);
    await refuse(request, "unknown_person");
    throw new AppError("diia.failed");
  }
  if (!(await settleDiiaRequest(db, row.id, { status: "Finished", userId }, deps.now))) {
    await refuse(request, "replay", userId);
    throw new AppError("diia.failed");
  }
  await audit(request, { type: "sign_in", result: "success", authMethod: "DIIA", userId });
}
