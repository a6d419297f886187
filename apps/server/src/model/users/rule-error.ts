import type { ImportReasonCode } from "@kpi-id/contracts";

/**
 * A person's data breaking a rule of `user create` / `user import`: the CLI prints the message,
 * the console translates the reason and names the field.
 */
export class PersonRuleError extends Error {
  override name = "PersonRuleError";
  readonly reason: ImportReasonCode;
  readonly field: string | null;

  constructor(reason: ImportReasonCode, field: string | null, message: string) {
    super(message);
    this.reason = reason;
    this.field = field;
  }
}
