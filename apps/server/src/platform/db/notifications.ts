import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

export interface ChannelHandlers {
  /** A payload sent on the channel, in the order the sending transactions committed. */
  message(payload: string): void;
  /**
   * True once the channel is listened to; false when the connection is lost, since notifications may then
   * have been missed (what was learned from the channel must be dropped), until it is listened to again.
   */
  listening(state: boolean): void;
}

export interface ChannelSubscription {
  /** Resolves after the first attempt to listen, whether it succeeded or is being retried. */
  ready: Promise<void>;
  /** Sends a payload on the channel; listeners hear it after everything committed before it was sent. */
  send(payload: string): Promise<void>;
  /** Drops the listening connection and listens anew (its owner found it deaf). */
  restart(): void;
  close(): Promise<void>;
}

const channelName = /^[a-z_][a-z0-9_]*$/;
const retryMs = 1_000;

/**
 * Listens on a PostgreSQL channel through a connection of its own (a pooled one would be reused by other
 * queries and drop the LISTEN), reconnecting after a loss. A connection that went deaf without a word (a
 * dropped TCP connection, a pooler that swallows notifications) is for the owner to notice, by sending itself
 * payloads and calling `restart` when they stop coming back.
 */
export function listenOnPostgres(
  connectionString: string,
  pool: pg.Pool,
  channel: string,
  handlers: ChannelHandlers,
): ChannelSubscription {
  if (!channelName.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let closed = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lost = (client: pg.Client) => {
    if (client !== current) return;
    current = undefined;
    handlers.listening(false);
    client.end().catch(() => {});
    if (!closed) retry = setTimeout(() => void connect(), retryMs).unref();
  };

  async function connect(): Promise<void> {
    const client = new pg.Client({
      connectionString,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: "kpi-id change listener",
    });
    current = client;
    client.on("notification", (notification) => {
      if (client === current && notification.channel === channel) handlers.message(notification.payload ?? "");
    });
    client.on("error", () => lost(client));
    client.on("end", () => lost(client));
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
      if (client === current && !closed) handlers.listening(true);
    } catch {
      lost(client);
    }
  }

  return {
    ready: connect(),
    send: async (payload) => {
      // A notification only: its commit need not wait for the disk, and a notifying commit holds PostgreSQL's
      // one notification lock for every session of the cluster until it is done.
      await pool.query("select set_config('synchronous_commit', 'off', true), pg_notify($1, $2)", [channel, payload]);
    },
    restart: () => {
      if (current) lost(current);
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const client = current;
      current = undefined;
      await client?.end().catch(() => {});
    },
  };
}

/**
 * The same on PGlite: one process owns the database, and a notification is heard before the statement that
 * committed it returns.
 */
export function listenOnPglite(pglite: PGlite, channel: string, handlers: ChannelHandlers): ChannelSubscription {
  if (!channelName.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let unlisten: (() => Promise<void>) | undefined;
  const ready = pglite
    .listen(channel, (payload) => handlers.message(payload))
    .then((stop) => {
      unlisten = stop;
      handlers.listening(true);
    });
  return {
    ready,
    send: async (payload) => {
      await pglite.query("select pg_notify($1, $2)", [channel, payload]);
    },
    // In process: nothing to reconnect.
    restart: () => {},
    close: async () => {
      await ready.catch(() => {});
      if (!pglite.closed) await unlisten?.();
    },
  };
}
