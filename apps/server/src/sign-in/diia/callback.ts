import { text, UNSTORABLE_TEXT_MESSAGE } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { findDiiaRequestByHash, settleDiiaRequest } from "../../model/diia/requests.ts";
import { audit } from "../../platform/http/audit.ts";
import type { DiiaSignatureVerifier, SignatureFailure } from "./crypto/verifier.ts";
import { MalformedMultipartError, parseMultipart } from "./multipart.ts";

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

/** Why a callback was refused; recorded in the log and the audit trail, never with the tax id. */
export type CallbackRefusal =
  | "malformed"
  | "unstorable_text"
  | "unknown_request"
  | "expired"
  | "replay"
  | "unknown_person"
  | SignatureFailure;

/** What Diia is told: Diia's SDK samples answer 200 `{success}` and keep the reason to themselves. */
export type CallbackOutcome = { success: true } | { success: false; reason: CallbackRefusal };

async function refuse(request: FastifyRequest, reason: CallbackRefusal, userId?: string): Promise<CallbackOutcome> {
  await audit(request, {
    type: "sign_in",
    result: "failure",
    authMethod: "DIIA",
    // Text PostgreSQL cannot store is one more malformed delivery to the audit trail.
    reason: `diia.${reason === "unstorable_text" ? "malformed" : reason}`,
    userId,
  });
  return { success: false, reason };
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" ? value : undefined;
}

/** Reads the `encodeData` part; a refusal when anything about the body is off. */
export function readCallback(request: FastifyRequest): DiiaCallback | "malformed" | "unstorable_text" {
  try {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const part = parseMultipart(body, header(request, "content-type")).find((each) => each.name === "encodeData");
    if (!part) return "malformed";
    const json: unknown = JSON.parse(Buffer.from(part.body.toString("ascii").trim(), "base64").toString("utf8"));
    const parsed = encodeDataSchema.safeParse(json);
    if (!parsed.success) {
      const unstorable = parsed.error.issues.some((issue) => issue.message === UNSTORABLE_TEXT_MESSAGE);
      return unstorable ? "unstorable_text" : "malformed";
    }
    // Diia also delivers document signings to partners; only a delivery that says it is a Diia ID
    // sign-in belongs here (a missing header is refused too: Diia always sends it).
    if (header(request, "x-diia-id-action") !== "auth") return "malformed";
    const traceId = header(request, "x-document-request-trace-id");
    // The trace header carries the same hashed id; a mismatch is a forged or mixed-up delivery.
    if (traceId !== undefined && traceId !== parsed.data.requestId) return "malformed";
    return { hashedRequestId: parsed.data.requestId, signature: Buffer.from(parsed.data.signature, "base64") };
  } catch (error) {
    if (error instanceof MalformedMultipartError || error instanceof SyntaxError) return "malformed";
    throw error;
  }
}

export interface CallbackDependencies {
  verifier: DiiaSignatureVerifier;
  findUserIdByTaxId(taxId: string): Promise<string | undefined>;
  now: Date;
}

/**
 * Diia's delivery of a signed Diia ID sign-in. Every refusal is audited and returned (the route logs it
 * and tells Diia only `success: false`); the request it names (if any) is settled once, so its poll
 * shows the person the reason.
 */
export async function acceptCallback(request: FastifyRequest, deps: CallbackDependencies): Promise<CallbackOutcome> {
  const { db } = request.server;
  const callback = readCallback(request);
  if (typeof callback === "string") return refuse(request, callback);
  const row = await findDiiaRequestByHash(db, callback.hashedRequestId);
  if (!row) return refuse(request, "unknown_request");
  if (row.status !== "Processing") return refuse(request, "replay");
  if (deps.now >= row.expires_at) {
    await settleDiiaRequest(db, row.id, { status: "Expired", failureCode: "expired" }, deps.now);
    return refuse(request, "expired");
  }
  const check = await deps.verifier.verify({ signature: callback.signature, requestId: row.id, now: deps.now });
  if (!check.ok) {
    await settleDiiaRequest(db, row.id, { status: "Failed", failureCode: check.reason }, deps.now);
    return refuse(request, check.reason);
  }
  const userId = await deps.findUserIdByTaxId(check.signer.taxId);
  if (!userId) {
    await settleDiiaRequest(db, row.id, { status: "Failed", failureCode: "unknown_person" }, deps.now);
    return refuse(request, "unknown_person");
  }
  if (!(await settleDiiaRequest(db, row.id, { status: "Finished", userId }, deps.now))) {
    return refuse(request, "replay", userId);
  }
  await audit(request, { type: "sign_in", result: "success", authMethod: "DIIA", userId });
  return { success: true };
}
