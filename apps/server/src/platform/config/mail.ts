import { ConfigError } from "./error.ts";
import type { Environment } from "./schema.ts";

export interface MailConfig {
  /** smtp://user:pass@host:port (STARTTLS when offered) or smtps:// (TLS from the start). */
  smtpUrl: string;
  /** The From header: `KPI ID <no-reply@kpi.ua>`. */
  from: string;
}

export function readMailConfig(environment: Environment, isProduction: boolean): MailConfig | undefined {
  if (isProduction && environment.MAIL_SANDBOX === true) {
    throw new ConfigError("MAIL_SANDBOX: the sandbox mail stand-in is refused when NODE_ENV=production");
  }
  if (environment.SMTP_URL === undefined) return undefined;
  return { smtpUrl: environment.SMTP_URL, from: environment.MAIL_FROM };
}
