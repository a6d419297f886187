import type { FastifyReply, FastifyRequest } from "fastify";
import type { DiiaCaller } from "../../model/diia/requests.ts";
import { hashToken, sameBytes } from "../../platform/crypto/tokens.ts";
import { browserBinding } from "../../platform/http/browser-binding.ts";
import { fromBrowser } from "../../platform/http/security.ts";

/**
 * A Diia sign-in request belongs to whoever asked for its deep link, so a request id seen in a log or
 * over a shoulder yields neither status nor grant (the QR code and the deep link carry only Diia's hash
 * of it, never the id itself):
 * - a browser: GET /api/diia/app-link binds it (http/browser-binding.ts, an HttpOnly cookie) and
 *   GET /api/diia/check-request answers only a caller presenting that cookie. One secret serves all of a
 *   browser's requests (several tabs, QR codes renewed every few minutes);
 * - a server-side caller (existing public integrations: plain HTTP, no cookie jar, no Origin and no
 *   Sec-Fetch-Site): its request is bound to its address, and a cookie-less poll is answered only for such
 *   a request and only from that address (design.md §7: an existing integration's calls never break).
 */
// Lives as long as the longest sign-in: a request's life plus the time its grant may be collected.
const diiaBinding = browserBinding("kpi_id_diia", 60 * 60);

export type { DiiaCaller };

/** Who polls a request: the binding cookie they present, if any, and their address. */
export interface DiiaPoller {
  browserHash: Buffer | undefined;
  addressHash: Buffer;
}

// The address as Fastify sees it after TRUST_PROXY: the integration's server, not a proxy in front of us.
const addressHashOf = (request: FastifyRequest) => hashToken(`diia-caller\0${request.ip}`);

/** Binds the asking caller (sets the browser cookie either way: a browser that sent no headers still keeps it). */
export function bindCaller(request: FastifyRequest, reply: FastifyReply): DiiaCaller {
  const serverSide = !fromBrowser(request) && diiaBinding.presented(request) === undefined;
  return { browserHash: diiaBinding.bind(request, reply), addressHash: addressHashOf(request), serverSide };
}

export function pollerOf(request: FastifyRequest): DiiaPoller {
  return { browserHash: diiaBinding.presented(request), addressHash: addressHashOf(request) };
}

interface BoundRow {
  browser_hash: Uint8Array | null;
  caller_address_hash: Uint8Array | null;
  server_side: boolean;
}

const same = (stored: Uint8Array | null, presented: Buffer | undefined) =>
  !!stored && !!presented && sameBytes(Buffer.from(stored), presented);

/**
 * Whether the poller is who asked: the same binding cookie; or, for a request a server made, no cookie at
 * all from the same address. A browser's request is never answered without its cookie, from any address.
 */
export function askedByPoller(row: BoundRow, poller: DiiaPoller): boolean {
  if (poller.browserHash !== undefined) return same(row.browser_hash, poller.browserHash);
  return row.server_side && same(row.caller_address_hash, poller.addressHash);
}
