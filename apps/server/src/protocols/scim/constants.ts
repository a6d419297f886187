// What the SCIM modules share without scimmy: the routes are registered at start-up from these, while scimmy
// and the schemas built on it (schema.ts) load with the first SCIM request (handlers.ts).

export const kpiUserSchemaId = "urn:ietf:params:scim:schemas:extension:kpi:2.0:User";
export const kpiGroupSchemaId = "urn:ietf:params:scim:schemas:extension:kpi:2.0:Group";
export const scimBasePath = "/scim/v2";
/** The most resources one list answer holds (RFC 7644 §3.4.2.4: the server may return fewer than asked). */
export const scimMaxResults = 200;
