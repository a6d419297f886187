import type { FastifyRequest } from "fastify";
import { hashToken, sameBytes } from "../../platform/crypto/tokens.ts";
import { AppError } from "../../platform/errors.ts";

/** The header FreeRADIUS sends RADIUS_REST_SECRET in (deploy/freeradius/radiusd.conf, policy kpi_id_rest_secret). */
export const radiusSecretHeader = "x-kpi-id-radius-secret";

export const radiusSecretNote =
  "Only for FreeRADIUS's rest module (deploy/freeradius): the `X-KPI-ID-RADIUS-Secret` header must hold " +
  "RADIUS_REST_SECRET (compared in constant time), else 401 `radius.unauthorized`; not served without " +
  "RADIUS_REST_SECRET (404). ";

/** The caller must present RADIUS_REST_SECRET; compared as SHA-256 digests, so neither value nor length leaks. */
export function requireRadiusServer(request: FastifyRequest): void {
  const secret = request.server.config.wifi.restSecret;
  if (secret === undefined) throw new AppError("request.not_found");
  const given = request.headers[radiusSecretHeader];
  const presented = typeof given === "string" ? given : "";
  if (!sameBytes(hashToken(secret), hashToken(presented))) throw new AppError("radius.unauthorized");
}
