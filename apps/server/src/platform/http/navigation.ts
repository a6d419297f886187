import type { FastifyRequest } from "fastify";

/**
 * A browser navigating here (a link, a redirect, a form post) rather than a script: such a request is
 * answered with a page or a redirect to one, never a JSON body the person would see raw.
 */
export function isNavigation(request: FastifyRequest): boolean {
  if (request.headers["sec-fetch-mode"] === "navigate") return true;
  const accept = request.headers.accept ?? "";
  return accept.includes("text/html");
}
