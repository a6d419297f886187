import { resolve } from "node:path";
import type { z } from "zod";
import { type Environment, environmentSchema } from "./schema.ts";
import { describeSecretProblem, developmentSecret, secretProblem } from "./secrets.ts";

export type { Environment } from "./schema.ts";

export interface Config {
  env: Environment["NODE_ENV"];
  isProduction: boolean;
  host: string;
  port: number;
  publicUrl: string;
  /** Cookies get `Secure` and the `__Host-` prefix when the service is served over https. */
  secureCookies: boolean;
  trustProxy: boolean | string;
  logLevel: Environment["LOG_LEVEL"];
  database: { url?: string; poolMax: number; dataDir: string };
  webDistDir?: string;
  sessionSecret: string;
  sessions: { idleTimeoutSeconds: number; absoluteTimeoutSeconds: number };
  loginGrantTtlSeconds: number;
  ticketTtlSeconds: number;
  bodyLimitBytes: number;
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
  sandbox: boolean;
  seedDemoData: boolean;
  support: { email: string; botEmployeesUrl: string; botStudentsUrl: string };
}

/** A bad setting: the message is one line naming the variable and what is wrong. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

function formatIssue(issue: z.core.$ZodIssue): string {
  const variable = issue.path.join(".") || "environment";
  return `${variable}: ${issue.message}`;
}

/** "true" trusts every proxy; otherwise a comma-separated list of proxy addresses or CIDRs. */
function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  return value;
}

function resolveSessionSecret(environment: Environment, dataDir: string): string {
  const secret = environment.SESSION_SECRET;
  const isProduction = environment.NODE_ENV === "production";
  if (secret === undefined) {
    if (isProduction) throw new ConfigError("SESSION_SECRET: is required in production");
    return developmentSecret(dataDir, "session");
  }
  const problem = secretProblem(secret);
  if (problem && (isProduction || problem === "too_short")) {
    throw new ConfigError(`SESSION_SECRET: ${describeSecretProblem(problem)}`);
  }
  return secret;
}

/** Parses the environment once; throws ConfigError on the first bad value. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = environmentSchema.safeParse(source);
  if (!parsed.success) {
    const [first] = parsed.error.issues;
    throw new ConfigError(first ? formatIssue(first) : "environment: invalid");
  }
  const environment = parsed.data;
  const isProduction = environment.NODE_ENV === "production";
  const publicUrl = environment.PUBLIC_URL ?? `http://localhost:${environment.PORT}`;
  const dataDir = resolve(environment.DATA_DIR);

  if (isProduction && environment.PUBLIC_URL === undefined) {
    throw new ConfigError("PUBLIC_URL: is required in production (the address people open)");
  }
  if (isProduction && environment.SANDBOX === true) {
    throw new ConfigError("SANDBOX: sandbox mode is refused when NODE_ENV=production");
  }
  if (isProduction && environment.SEED_DEMO_DATA === true) {
    throw new ConfigError("SEED_DEMO_DATA: demo people are never seeded when NODE_ENV=production");
  }
  const embedded = environment.DATABASE_URL === undefined;

  return {
    env: environment.NODE_ENV,
    isProduction,
    host: environment.HOST,
    port: environment.PORT,
    publicUrl,
    secureCookies: publicUrl.startsWith("https://"),
    trustProxy: parseTrustProxy(environment.TRUST_PROXY),
    logLevel: environment.LOG_LEVEL,
    database: { url: environment.DATABASE_URL, poolMax: environment.DATABASE_POOL_MAX, dataDir },
    webDistDir: environment.WEB_DIST_DIR,
    sessionSecret: resolveSessionSecret(environment, dataDir),
    sessions: {
      idleTimeoutSeconds: environment.SESSION_IDLE_TIMEOUT_SECONDS,
      absoluteTimeoutSeconds: environment.SESSION_ABSOLUTE_TIMEOUT_SECONDS,
    },
    loginGrantTtlSeconds: environment.LOGIN_GRANT_TTL_SECONDS,
    ticketTtlSeconds: environment.TICKET_TTL_SECONDS,
    bodyLimitBytes: environment.BODY_LIMIT_BYTES,
    argon2: {
      memoryCost: environment.ARGON2_MEMORY_KIB,
      timeCost: environment.ARGON2_TIME_COST,
      parallelism: environment.ARGON2_PARALLELISM,
    },
    sandbox: !isProduction && (environment.SANDBOX ?? true),
    seedDemoData: !isProduction && (environment.SEED_DEMO_DATA ?? embedded),
    support: {
      email: environment.SUPPORT_EMAIL,
      botEmployeesUrl: environment.SUPPORT_BOT_EMPLOYEES_URL,
      botStudentsUrl: environment.SUPPORT_BOT_STUDENTS_URL,
    },
  };
}
