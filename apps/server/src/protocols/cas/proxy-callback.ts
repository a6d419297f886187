import type { FastifyBaseLogger } from "fastify";

/** How long KPI ID waits for a proxy callback to answer before giving no proxy-granting ticket. */
const callbackTimeoutMs = 5000;

/**
 * Why a `pgtUrl` cannot receive a proxy-granting ticket, or undefined. Only https (CAS Protocol 3.0 §2.5.4: the
 * callback's certificate proves who receives the ticket; Node checks it against its CAs and TLS_EXTRA_CA_FILE's),
 * on the host of the service that validates, without a name or password before the host or a fragment.
 */
export function proxyCallbackProblem(pgtUrl: string, service: string): string | undefined {
  if (!URL.canParse(pgtUrl)) return "the proxy callback is not an absolute URL";
  const callback = new URL(pgtUrl);
  if (callback.protocol !== "https:") return "the proxy callback must be https";
  if (callback.username || callback.password || pgtUrl.includes("#")) return "the proxy callback is not a plain URL";
  if (callback.hostname !== new URL(service).hostname) return "the proxy callback is not on the service's host";
  return undefined;
}

/**
 * Hands the proxy-granting ticket and its IOU to the callback (§2.5.4): a GET with `pgtId` and `pgtIou`, which must
 * answer 200. Redirects are not followed and the certificate is checked; any failure means no ticket (logged, never
 * the ticket itself).
 */
export async function deliverProxyGrantingTicket(
  log: FastifyBaseLogger,
  pgtUrl: string,
  pgtId: string,
  pgtIou: string,
): Promise<boolean> {
  const url = new URL(pgtUrl);
  url.searchParams.set("pgtId", pgtId);
  url.searchParams.set("pgtIou", pgtIou);
  try {
    const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(callbackTimeoutMs) });
    await response.body?.cancel();
    if (response.status === 200) return true;
    log.warn(
      { callback: new URL(pgtUrl).origin, status: response.status },
      "cas: the proxy callback refused the ticket",
    );
  } catch (error) {
    log.warn({ callback: new URL(pgtUrl).origin, err: error }, "cas: the proxy callback could not be reached");
  }
  return false;
}
