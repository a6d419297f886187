import type Provider from "oidc-provider";
import { machineryOn } from "../../platform/bench-switches.ts";
import type { ApplicationRow } from "../../platform/db/schema.ts";
import type { FindApplication } from "./clients.ts";

type ParsedClient = NonNullable<Awaited<ReturnType<Provider["Client"]["find"]>>>;

/**
 * oidc-provider's `Client.find` asks the adapter for a client's metadata on every request that names one, then
 * hashes it (JSON and SHA-256) to find the client it parsed from the same metadata (issue 63: 6 % of a userinfo).
 * The application cache already hands out one frozen row per application until the row changes, so the parsed
 * client is kept beside that row: the same row answers with the same client, and a changed row (a new object,
 * apps/cache.ts) goes through the library's own find again, which parses it as before.
 *
 * The row the library's find then reads is handed to it, so the client kept is the one parsed from that very row:
 * the handoff is set, taken by the adapter's find (which asks for the application before awaiting anything) and
 * cleared within one synchronous step, so no other request can see it.
 */
export class ParsedClients {
  private readonly parsed = new WeakMap<ApplicationRow, ParsedClient>();
  private readonly handedOff = new Map<string, ApplicationRow>();

  private readonly findApplicationRow: FindApplication;

  constructor(findApplicationRow: FindApplication) {
    this.findApplicationRow = findApplicationRow;
  }

  /** What the adapter reads applications with: the handed-off row while the library's find runs, else a read. */
  readonly findApplication: FindApplication = (id) => {
    const row = this.handedOff.get(id);
    if (row) return Promise.resolve(row);
    return this.findApplicationRow(id);
  };

  /** Puts the kept clients in front of the library's own `Client.find`. */
  install(provider: Provider): void {
    const Client = provider.Client;
    const libraryFind = Client.find.bind(Client);
    libraryFinds.set(provider, libraryFind);
    Client.find = async (id: string) => {
      if (!machineryOn("parsed-clients")) return libraryFind(id);
      const row = typeof id === "string" && id.length > 0 ? await this.findApplicationRow(id) : undefined;
      // No such application, or one that is no client (disabled, suspended): the library's own path decides.
      if (!row?.oidc_enabled || row.suspended_at) return libraryFind(id);
      const kept = this.parsed.get(row);
      if (kept) return kept;
      this.handedOff.set(id, row);
      const finding = libraryFind(id);
      this.handedOff.delete(id);
      const client = await finding;
      if (client) this.parsed.set(row, client);
      return client;
    };
  }
}

const libraryFinds = new WeakMap<Provider, Provider["Client"]["find"]>();

/** The library's own `Client.find` of a provider with the kept clients in front: the bench's "before". */
export function libraryClientFind(provider: Provider): Provider["Client"]["find"] | undefined {
  return libraryFinds.get(provider);
}

const perOptions = new WeakMap<object, ParsedClients>();

/** One ParsedClients per provider's options, shared by its configuration (the adapter) and createProvider. */
export function parsedClientsFor(options: object, findApplication: FindApplication): ParsedClients {
  let parsedClients = perOptions.get(options);
  if (!parsedClients) {
    parsedClients = new ParsedClients(findApplication);
    perOptions.set(options, parsedClients);
  }
  return parsedClients;
}
