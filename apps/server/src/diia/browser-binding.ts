import type { FastifyReply, FastifyRequest } from "fastify";
import { browserBinding } from "../http/browser-binding.ts";

/**
 * A Diia sign-in request belongs to the browser that asked for its deep link: GET /api/diia/app-link
 * binds the browser (http/browser-binding.ts) and keeps the binding's hash with the request;
 * GET /api/diia/check-request answers only a caller presenting it. One secret serves all of a
 * browser's requests (several tabs, QR codes renewed every few minutes).
 */
// Lives as long as the longest sign-in: a request's life plus the time its grant may be collected.
const diiaBinding = browserBinding("kpi_id_diia", 60 * 60);

export function bindBrowser(request: FastifyRequest, reply: FastifyReply): Buffer {
  return diiaBinding.bind(request, reply);
}

export function presentedBinding(request: FastifyRequest): Buffer | undefined {
  return diiaBinding.presented(request);
}
