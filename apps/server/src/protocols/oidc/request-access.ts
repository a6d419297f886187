import { hasApplicationAccess } from "../../model/admission/applications.ts";
import type { Db } from "../../platform/db/schema.ts";
import { accessKey, currentOidcMemory } from "./request-memory.ts";

/**
 * Whether the person may use the application, asked once per provider request: the resumed interaction's read
 * (request-memory.ts) or the authorization endpoint's account lookup (claims.ts) brings it, and the access prompt
 * (access.ts) and the grant without a screen (session-grant.ts) take that answer instead of asking again.
 */
export function rememberAccess(userId: string, clientId: string, allowed: Promise<boolean>): void {
  currentOidcMemory()?.access.set(accessKey(userId, clientId), allowed);
}

/** This request's answer, or the database's (then remembered for the request). */
export function requestAccess(db: Db, userId: string, clientId: string): Promise<boolean> {
  const memory = currentOidcMemory();
  const known = memory?.access.get(accessKey(userId, clientId));
  if (known) return known;
  const allowed = hasApplicationAccess(db, userId, clientId);
  memory?.access.set(accessKey(userId, clientId), allowed);
  return allowed;
}
