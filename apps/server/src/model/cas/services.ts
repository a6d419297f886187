import type { CasAttributeName, CasAttributeRenames } from "@kpi-id/contracts";
import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import type { CasServiceMatch } from "../../platform/db/schema-cas.ts";
import { casRenameProblem, isCasAttributeName, namedOrDefault, renamesOf } from "./release-policy.ts";

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Why an address cannot be a CAS service, or undefined. A service is an exact URL or a prefix: an absolute https
 * URL (plain http only on this computer, for testing), written as the URL parser writes it (what is stored is what
 * is compared), without a name or password before the host, a fragment or a wildcard. A prefix names a path on
 * one origin and ends in "/" (https://host/app/ matches https://host/app/page?x, never https://host/application
 * or https://host.example): nothing like a regular expression, so no address outside the operator's reach matches.
 */
export function casServiceProblem(url: string, match: CasServiceMatch): string | undefined {
  if (url.includes("*")) return "wildcard";
  if (!URL.canParse(url)) return "not_absolute";
  const parsed = new URL(url);
  if (parsed.username || parsed.password) return "userinfo";
  if (url.includes("#")) return "fragment";
  if (parsed.href !== url) return "not_canonical";
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && loopbackHosts.has(parsed.hostname))) {
    return "scheme";
  }
  if (match === "prefix" && (parsed.search !== "" || !parsed.pathname.endsWith("/"))) return "prefix_not_a_path";
  return undefined;
}

export interface CasService {
  url: string;
  applicationId: string;
  match: CasServiceMatch;
  attributes: CasAttributeName[];
  /** Attributes released under the name the service's plugin expects (migration 0665). */
  renames: CasAttributeRenames;
  singleLogout: boolean;
  proxy: boolean;
}

export type CasServiceSettings = CasService;

type ServiceRow = {
  url: string;
  application_id: string;
  match: CasServiceMatch;
  attributes: string[];
  renames: unknown;
  single_logout: boolean;
  proxy: boolean;
};

function serviceOf(row: ServiceRow): CasService {
  return {
    url: row.url,
    applicationId: row.application_id,
    match: row.match,
    attributes: namedOrDefault(row.attributes.filter(isCasAttributeName)),
    renames: renamesOf(row.renames),
    singleLogout: row.single_logout,
    proxy: row.proxy,
  };
}

const columns = ["url", "application_id", "match", "attributes", "renames", "single_logout", "proxy"] as const;

/** The refusal when a service would reach addresses another application's service already reaches. */
export class CasServiceTakenError extends Error {
  readonly otherApplicationId: string;
  constructor(otherApplicationId: string) {
    super("the address is another application's CAS service");
    this.otherApplicationId = otherApplicationId;
  }
}

/**
 * Registers (or changes) one of an application's CAS services. An address is one application's: an exact URL or
 * a prefix that overlaps another application's service (either one inside the other) is refused, so a service
 * ticket can never be issued to one application for another's address.
 */
export async function setCasService(db: Db, service: CasServiceSettings): Promise<CasService> {
  const problem = casServiceProblem(service.url, service.match);
  if (problem) throw new Error(`CAS service ${problem}`);
  const renameProblem = casRenameProblem(service.attributes, service.renames);
  if (renameProblem) throw new Error(`CAS service rename ${renameProblem.attribute}: ${renameProblem.problem}`);
  const overlapping = await db
    .selectFrom("cas_services")
    .select("application_id")
    .where("application_id", "!=", service.applicationId)
    .where((row) =>
      row.or([
        row("url", "=", service.url),
        row.and([row("match", "=", "prefix"), sql<boolean>`starts_with(${service.url}, url)`]),
        ...(service.match === "prefix" ? [sql<boolean>`starts_with(url, ${service.url})`] : []),
      ]),
    )
    .executeTakeFirst();
  if (overlapping) throw new CasServiceTakenError(overlapping.application_id);
  const values = {
    match: service.match,
    attributes: service.attributes,
    renames: JSON.stringify(service.renames),
    single_logout: service.singleLogout,
    proxy: service.proxy,
  };
  const row = await db
    .insertInto("cas_services")
    .values({ url: service.url, application_id: service.applicationId, ...values })
    .onConflict((conflict) => conflict.column("url").doUpdateSet(values))
    .returning(columns)
    .executeTakeFirstOrThrow();
  return serviceOf(row);
}

/** Forgets one of the application's services; answers whether there was one. */
export async function removeCasService(db: Db, applicationId: string, url: string): Promise<boolean> {
  const result = await db
    .deleteFrom("cas_services")
    .where("application_id", "=", applicationId)
    .where("url", "=", url)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The application's CAS services, in address order. */
export async function casServicesOf(db: Db, applicationId: string): Promise<CasService[]> {
  const rows = await db
    .selectFrom("cas_services")
    .select(columns)
    .where("application_id", "=", applicationId)
    .orderBy("url")
    .execute();
  return rows.map(serviceOf);
}

/**
 * The registered service a CAS client's `service` names: an exact entry equal to it, or the longest prefix of it
 * as the URL parser writes it (so /app/../admin is not under /app/). Unparseable, with a name or password before
 * the host, or with a fragment: none.
 */
export async function findCasService(db: Db, service: string): Promise<CasService | undefined> {
  if (!URL.canParse(service) || service.includes("#")) return undefined;
  const parsed = new URL(service);
  if (parsed.username || parsed.password) return undefined;
  const row = await db
    .selectFrom("cas_services")
    .select(columns)
    .where((entry) =>
      entry.or([
        entry.and([entry("match", "=", "exact"), entry("url", "in", [service, parsed.href])]),
        entry.and([entry("match", "=", "prefix"), sql<boolean>`starts_with(${parsed.href}, url)`]),
      ]),
    )
    .orderBy(sql`length(url)`, "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? serviceOf(row) : undefined;
}
