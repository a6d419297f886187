import type { User } from "../db/schema.ts";

/** Who may receive security mail: the person's address and the one KPI ID has seen proven. */
export type Recipient = Pick<User, "email" | "verified_email">;

/**
 * Where security mail goes: only an address KPI ID has seen proven (migration 0020), so a typo or
 * someone else's address in the directory never receives a person's reset link or notices.
 */
export function verifiedAddressOf(person: Recipient): string | undefined {
  const { email, verified_email: verified } = person;
  return email && verified?.toLowerCase() === email.toLowerCase() ? email : undefined;
}
