import type { CasAttributeName, CasAttributeRenames } from "@kpi-id/contracts";
import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import type { CasServiceMatch } from "../../platform/db/schema-cas.ts";
import { casRenameProblem, isCasAttributeName, namedOrDefault, renamesOf } from "./release-policy.ts";

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Anything but printable ASCII: a line break or another control character (which the URL parser drops, so the
 * address matched would not be the one the browser is sent to, and which no HTTP header may carry), a space, or a
 * character a client should have percent-encoded.
 */
const notPrintableAscii = /[^\x21-\x7e]/;

/**
 * What some web server reads as another path than the URL parser does: an encoded slash, backslash, dot or
 * semicolon (Debian's nginx serves /app/..%2fadmin as /admin, IIS takes %5C for "/"), an encoded "%" (a server
 * that decodes twice makes one of those from %252f), an encoded control character, a raw backslash, and ";" in a
 * segment (Tomcat resolves /app/..;/admin as /admin).
 */
const pathReadDifferently = /%(?:2f|5c|2e|3b|25|[01][0-9a-f]|7f)|[\\;]/i;

/**
 * The path a prefix judges, decoded, or undefined when a web server could read the address as another path: the
 * address must be in the canonical form the URL parser writes (no "..", "." or %2e%2e segment it would resolve, no
 * default port, lower-case host), and its path free of everything `pathReadDifferently` names. Only then is the
 * decoded path the one every server serves, so "under the prefix" means the same to KPI ID and to the server.
 */
function pathAsServersReadIt(service: string, parsed: URL): string | undefined {
  if (!service.startsWith(parsed.origin)) return undefined;
  const rawPath = service.slice(parsed.origin.length).split("?", 1)[0] ?? "";
  if (rawPath !== parsed.pathname || pathReadDifferently.test(rawPath)) return undefined;
  try {
    return decodeURIComponent(rawPath);
  } catch {
    return undefined; // an escape that is not UTF-8
  }
}

/**
 * Why an address cannot be a CAS service, or undefined. A service is an exact URL or a prefix: an absolute https
 * URL (plain http only on this computer, for testing), written as the URL parser writes it (what is stored is what
 * is compared), without a name or password before the host, a fragment or a wildcard. A prefix names a path on
 * one origin and ends in "/" (https://host/app/ matches https://host/app/page?x, never https://host/application
 * or https://host.example), and holds nothing a web server could read as another path (`pathReadDifferently`):
 * nothing like a regular expression, so no address outside the operator's reach matches.
 */
export function casServiceProblem(url: string, match: CasServiceMatch): string | undefined {
  if (url.includes("*")) return "wildcard";
  if (notPrintableAscii.test(url) || !URL.canParse(url)) return "not_absolute";
  const parsed = new URL(url);
  if (parsed.username || parsed.password) return "userinfo";
  if (url.includes("#")) return "fragment";
  if (parsed.href !== url) return "not_canonical";
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && loopbackHosts.has(parsed.hostname))) {
    return "scheme";
  }
  if (match === "prefix" && (parsed.search !== "" || !parsed.pathname.endsWith("/"))) return "prefix_not_a_path";
  if (match === "prefix" && pathAsServersReadIt(url, parsed) === undefined) return "prefix_ambiguous_path";
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

/** Whether `path` (decoded) lies under the prefix service `url`'s path, on the same origin. */
function isUnderPrefix(url: string, origin: string, path: string): boolean {
  const prefix = new URL(url);
  const prefixPath = pathAsServersReadIt(url, prefix);
  return prefix.origin === origin && prefixPath !== undefined && path.startsWith(prefixPath);
}

/**
 * The registered service a CAS client's `service` names: an exact entry equal to it (as sent or as the URL parser
 * writes it), else the longest prefix whose decoded path starts the address's decoded path. An address a web server
 * could read as another path (`pathAsServersReadIt`: /app/..%2fadmin, /app/..;/admin, /app/..%5cadmin,
 * /app/%2e%2e/admin, anything not in canonical form) is under no prefix. Unparseable, with a control character or
 * anything but printable ASCII, with a name or password before the host, or with a fragment: none.
 */
export async function findCasService(db: Db, service: string): Promise<CasService | undefined> {
  if (notPrintableAscii.test(service) || !URL.canParse(service) || service.includes("#")) return undefined;
  const parsed = new URL(service);
  if (parsed.username || parsed.password) return undefined;
  const rows = await db
    .selectFrom("cas_services")
    .select(columns)
    .where((entry) =>
      entry.or([
        entry.and([entry("match", "=", "exact"), entry("url", "in", [service, parsed.href])]),
        entry.and([entry("match", "=", "prefix"), sql<boolean>`starts_with(url, ${`${parsed.origin}/`})`]),
      ]),
    )
    .execute();
  const exact = rows.find((row) => row.match === "exact");
  if (exact) return serviceOf(exact);
  const path = pathAsServersReadIt(service, parsed);
  if (path === undefined) return undefined;
  const [longest] = rows
    .filter((row) => isUnderPrefix(row.url, parsed.origin, path))
    .sort((a, b) => b.url.length - a.url.length);
  return longest ? serviceOf(longest) : undefined;
}
