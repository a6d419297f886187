import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { type RunningDiiaStandIn, startDiiaStandIn } from "../../../../sandbox/src/diia/index.ts";
import type { PhonePerson } from "../../../../sandbox/src/diia/people.ts";
import { signRequestHash } from "../../../../sandbox/src/diia/pki.ts";
import { hashRequestId } from "../../src/diia/crypto/gost-hash.ts";

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
  const body = options.body ?? callbackBody(encodeData(hashed, signRequestHash(signer.party, hashed)));
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
