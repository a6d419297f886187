import type { DiiaAppLink } from "@kpi-id/contracts";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { type RunningDiiaStandIn, startDiiaStandIn } from "../../../../sandbox/src/diia/index.ts";
import type { PhonePerson } from "../../../../sandbox/src/diia/people.ts";
import { signRequestHash } from "../../../../sandbox/src/diia/pki.ts";
import { signInShape } from "../../../../sandbox/src/diia/signature-shapes.ts";
import { hashRequestId } from "../../src/sign-in/diia/crypto/gost-hash.ts";

/** The Diia stand-in on a free port; the product is never called back over HTTP in these tests. */
export function startTestDiia(): Promise<RunningDiiaStandIn> {
  return startDiiaStandIn({ productUrl: "http://127.0.0.1:9", port: 0 });
}

export function person(diia: RunningDiiaStandIn, id: string): PhonePerson {
  const found = diia.people.find((each) => each.id === id);
  if (!found) throw new Error(`no stand-in person ${id}`);
  return found;
}

/** The multipart body Diia posts, with a chosen boundary and media type. */
export function callbackBody(encodeData: string, boundary = "diia-boundary-7f3a"): string {
  return [
    `--${boundary}`,
    'Content-Disposition: form-data; name="encodeData"',
    "",
    encodeData,
    `--${boundary}--`,
    "",
  ].join("\r\n");
}

export function encodeData(hashedRequestId: string, signature: Buffer): string {
  return Buffer.from(JSON.stringify({ requestId: hashedRequestId, signature: signature.toString("base64") })).toString(
    "base64",
  );
}

export interface PostCallbackOptions {
  mediaType?: "multipart/form-data" | "multipart/mixed";
  body?: string;
  headers?: Record<string, string>;
}

/** What the stand-in's phone does for `signer`, delivered through inject. */
export function postSignedCallback(
  app: FastifyInstance,
  requestId: string,
  signer: PhonePerson,
  options: PostCallbackOptions = {},
): Promise<LightMyRequestResponse> {
  const hashed = hashRequestId(requestId);
  const signature = signer.shape
    ? signInShape(signer.party, signer.shape.issuer, hashed, signer.shape.kind)
    : signRequestHash(signer.party, hashed);
  const body = options.body ?? callbackBody(encodeData(hashed, signature));
  return postCallback(app, body, { "x-document-request-trace-id": hashed, ...options.headers }, options.mediaType);
}

export function postCallback(
  app: FastifyInstance,
  body: string | Buffer,
  headers: Record<string, string> = {},
  mediaType = "multipart/form-data",
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: "POST",
    url: "/api/diia/callback",
    payload: body,
    headers: { "content-type": `${mediaType}; boundary=diia-boundary-7f3a`, "x-diia-id-action": "auth", ...headers },
  });
}

/** How a refused delivery is answered, as Diia's SDK samples answer one: 200 `{success: false}`, no reason. */
export function expectRefused(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ success: false });
}

/** The binding cookie GET /api/diia/app-link set, as a Cookie header ("" when none came). */
export function diiaBindingCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((each) => each.name.endsWith("kpi_id_diia"));
  return cookie ? `${cookie.name}=${cookie.value}` : "";
}

export interface DiiaBrowserRequest extends DiiaAppLink {
  /** The Cookie header of the browser that asked: only it may poll the request. */
  cookie: string;
}

/** What the login page does: asks for a deep link, carrying (and keeping) its cookie. */
export async function askForDeepLink(
  app: FastifyInstance,
  cookie = "",
  remoteAddress?: string,
): Promise<DiiaBrowserRequest> {
  const response = await app.inject({
    method: "GET",
    url: "/api/diia/app-link",
    // A browser's fetch from KPI ID's own page says so (a server-side caller sends neither header).
    headers: { "sec-fetch-site": "same-origin", ...(cookie ? { cookie } : {}) },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  if (response.statusCode !== 200) throw new Error(`app-link answered ${response.statusCode} ${response.body}`);
  return { ...(response.json() as DiiaAppLink), cookie: diiaBindingCookie(response) || cookie };
}

/** A poll of check-request with the given Cookie header ("" for none). */
export function pollDiia(app: FastifyInstance, requestId: string, cookie: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: "GET",
    url: `/api/diia/check-request?requestId=${encodeURIComponent(requestId)}`,
    headers: cookie ? { cookie } : {},
  });
}
