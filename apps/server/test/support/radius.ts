import { radiusPaths } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import { radiusSecretHeader } from "../../src/protocols/radius/routes.ts";

export const testRadiusSecret = "radius-rest-secret-for-tests-0123456789-abcdef";

/** The attributes the way FreeRADIUS's rest module sends them (body = 'json'). */
export function restAttributes(attributes: Record<string, string>): Record<string, { type: string; value: string[] }> {
  return Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => [name, { type: "string", value: [value] }]),
  );
}

/** One call of FreeRADIUS's rest module to KPI ID: the secret header, JSON attributes. */
export function radiusCall(
  app: FastifyInstance,
  step: keyof typeof radiusPaths,
  attributes: Record<string, string>,
  options: { secret?: string | null; query?: string } = {},
) {
  const secret = options.secret === undefined ? testRadiusSecret : options.secret;
  return app.inject({
    method: "POST",
    url: `${radiusPaths[step]}${options.query ?? ""}`,
    headers: { "content-type": "application/json", ...(secret === null ? {} : { [radiusSecretHeader]: secret }) },
    payload: JSON.stringify(restAttributes(attributes)),
  });
}

/** A TTLS/PAP check as FreeRADIUS's rest module asks it: the name, the password and the device's address. */
export function papAuthenticate(app: FastifyInstance, userName: string, password: string, station: string) {
  return radiusCall(app, "authenticate", {
    "User-Name": userName,
    "User-Password": password,
    "Calling-Station-Id": station,
  });
}

/** The reasons of the Wi-Fi refusals recorded so far (audit rows `wifi_sign_in`, failures), oldest first. */
export async function wifiRefusalReasons(app: FastifyInstance) {
  const rows = await app.db
    .selectFrom("audit_events")
    .select("reason")
    .where("event_type", "=", "wifi_sign_in")
    .where("result", "=", "failure")
    .orderBy("id")
    .execute();
  return rows.map((row) => row.reason);
}
