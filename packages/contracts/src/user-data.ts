/**
 * The person's fields as the ticket protocol keys them; the "My data" dialog lists these. Kept apart from
 * the schemas (no zod here): the apps screen needs the list, and importing it must not bring the schemas
 * and zod into that screen's first load.
 */
export const userDataKeys = ["NAME", "EMAIL", "TAX_ID", "STUDENT_ID", "EMPLOYEE_ID", "AUTH_METHOD"] as const;
export type UserDataKey = (typeof userDataKeys)[number];
