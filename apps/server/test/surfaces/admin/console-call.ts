/** One console endpoint as the authorization tests call it (the tables: console-calls.ts, console-calls-services.ts). */
export type Role = "admin" | "helpdesk";
export type UnitRoleName = "unit_admin" | "unit_helpdesk";

export interface ConsoleCall {
  method: "GET" | "POST";
  /** The path as the API reference names it. */
  route: string;
  /** Who may call it; everyone else gets 403 admin.forbidden. */
  allowed: Role[];
  /**
   * Which unit roles may call it within their reach (issue 79); for the others it does not exist (404). The
   * authorization matrix (unit-authorization-matrix.test.ts) asserts every cell.
   */
  unit: UnitRoleName[];
  body?: Record<string, unknown>;
  query?: string;
  /** What an allowed caller gets when not 200 (the test app sends no mail: recovery is not available). */
  answer?: { status: number; code?: string };
}
