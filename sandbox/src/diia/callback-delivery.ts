/** Diia's delivery of a signed Diia ID sign-in to the partner's callback. */
export interface DeliveryResult {
  status: number;
  body: string;
  /** The partner took the signature: 200 with `{"success": true}`, as Diia's SDK samples answer. */
  accepted: boolean;
}

function saysSuccess(body: string): boolean {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === "object" && parsed !== null && (parsed as { success?: unknown }).success === true;
  } catch {
    return false;
  }
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
  const body = await response.text();
  return { status: response.status, body, accepted: response.status === 200 && saysSuccess(body) };
}
