/** Diia's delivery of a signed Diia ID sign-in to the partner's callback. */
export interface DeliveryResult {
  status: number;
  body: string;
}

/**
 * POSTs multipart/form-data (Diia also uses multipart/mixed) with the trace
 * and action headers and the `encodeData` part: base64 JSON {requestId, signature}.
 */
export async function deliverCallback(
  callbackUrl: string,
  hashedRequestId: string,
  signature: Buffer,
): Promise<DeliveryResult> {
  const encodeData = Buffer.from(
    JSON.stringify({ requestId: hashedRequestId, signature: signature.toString("base64") }),
  ).toString("base64");
  const form = new FormData();
  form.set("encodeData", encodeData);
  const response = await fetch(callbackUrl, {
    method: "POST",
    headers: { "X-Document-Request-Trace-Id": hashedRequestId, "X-Diia-Id-Action": "auth" },
    body: form,
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, body: await response.text() };
}
