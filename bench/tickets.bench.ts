import { consumeTicket, createApplication, createUser, grantAccess, issueTicket } from "@kpi-id/server/testing";
import Fastify from "fastify";
import { sql } from "kysely";
import { inThisProcess, interleavedRounds, type SideTotals } from "./lib/interleaved-rounds.ts";
import { sequentialTimings, type Timed } from "./lib/measure.ts";
import { startBenchApp } from "./lib/server-app.ts";
import type { Comparison, Measurement } from "./lib/types.ts";

export const title = "Ticket exchange (POST /api/ticket)";

const origin = "http://127.0.0.1:1";
const password = "bench passphrase for the ticket run";
const secondsPerRun = 3;
// The exchange, its statement alone and its statement behind a bare route run in alternating rounds: PostgreSQL's
// commits got cheaper or dearer over a run (a statement at 1.13 ms p50 in one run, 0.51 in the next), and rounds one
// after the other put that drift into the ratios. Each round ends after its operations, so the tickets made first
// last on any machine.
const rounds = 6;
const roundSeconds = 1;
const operationsPerRound = 500;
const warmupOperations = 2;
const ticketsPerSide = rounds * operationsPerRound + warmupOperations;

function timedMeasurement(label: string, timed: Timed | SideTotals): Measurement {
  return { label, value: timed.rate, unit: "/s/core", p50Ms: timed.p50Ms, p99Ms: timed.p99Ms };
}

/** An operation that uses up the next of `made`, one-time tickets, and throws when none is left. */
function usingTickets(made: string[], operation: (ticketId: string) => Promise<void>): () => Promise<void> {
  let index = 0;
  return async () => {
    const ticketId = made[index++];
    if (!ticketId) throw new Error("out of tickets");
    await operation(ticketId);
  };
}

/**
 * Each ticket works once, so a load generator cannot replay one request: tickets are made first
 * (GET /api/app-redirect), then redeemed one at a time through app.inject, and a bare Fastify
 * route answering the same JSON is driven the same way.
 */
export async function run(): Promise<Comparison[]> {
  // Making the tickets takes over a minute on a busy machine: they must outlive it.
  const bench = await startBenchApp({ TICKET_TTL_SECONDS: "3600" });
  try {
    const { app } = bench;
    const user = await createUser(app.db, app.passwordHasher, { username: "ticketed", fullName: "Квиток" }, password);
    const { application, secret } = await createApplication(app.db, {
      name: "campus",
      title: "Campus",
      description: "A connected site",
      callbackUrl: "https://campus.kpi.ua/callback",
    });
    await grantAccess(app.db, user.id, application.id);
    const headers = { "content-type": "application/json", origin };
    const auth = await app.inject({
      method: "POST",
      url: "/api/auth",
      headers,
      payload: { username: "ticketed", password },
    });
    const internal = await app.inject({ method: "POST", url: "/api/auth/internal", headers, payload: auth.body });
    const cookie = internal.cookies.find((c) => c.name === "kpi_id_session");
    if (!cookie) throw new Error("bench sign-in failed");
    // The exchange's tickets, as a connected site gets them; one more for the answer the bare routes send.
    const ids: string[] = [];
    for (let i = 0; i <= ticketsPerSide; i++) {
      const redirect = await app.inject({
        url: `/api/app-redirect?appId=${application.id}`,
        headers: { cookie: `${cookie.name}=${cookie.value}` },
      });
      const ticketId = new URL(String(redirect.headers.location)).searchParams.get("ticketId");
      if (!ticketId) throw new Error(`no ticket: ${redirect.statusCode}`);
      ids.push(ticketId);
    }
    let sample = "";
    const exchange = usingTickets(ids, async (ticketId) => {
      const response = await app.inject({
        method: "POST",
        url: "/api/ticket",
        headers: { "content-type": "application/json" },
        payload: { ticketId, appId: application.id, appSecret: secret },
      });
      if (response.statusCode !== 200) throw new Error(`exchange answered ${response.statusCode} ${response.body}`);
      sample = response.body;
    });
    await exchange();

    // The exchange's database work alone (its one statement: the ticket marked used, the audit row, the person
    // and their roles, one commit), without HTTP or the service around it, on tickets made for it directly.
    const makeTickets = async () => {
      const made: string[] = [];
      for (let i = 0; i < ticketsPerSide; i++) {
        const at = new Date();
        made.push(
          await issueTicket(
            app.db,
            { applicationId: application.id, userId: user.id, authMethod: "PASSWORD" },
            3600,
            at,
          ),
        );
      }
      return made;
    };
    const statement = async (ticketId: string) => {
      const at = new Date();
      const row = {
        occurred_at: at,
        event_type: "ticket_exchange",
        result: "success",
        application_id: application.id,
        ip: "127.0.0.1",
        user_agent: null,
      } as const;
      if (!(await consumeTicket(app.db, ticketId, application.id, at, row)))
        throw new Error("the statement found no ticket");
    };
    const statementAlone = usingTickets(await makeTickets(), statement);

    // The least a one-time ticket can cost: its use must be committed before the answer, or a crash could
    // let it be used twice. A bare route that makes one such commit (one insert, one round trip) shows the floor.
    await sql`create table bench_commit_floor (id bigserial primary key, ticket text not null)`.execute(app.db);
    const bare = Fastify({ logger: false });
    bare.post("/api/ticket", async (_request, reply) => reply.type("application/json").send(sample));
    bare.post("/api/ticket-committed", async (_request, reply) => {
      await sql`insert into bench_commit_floor (ticket) values (${"ticket"})`.execute(app.db);
      return reply.type("application/json").send(sample);
    });
    // The least an exchange over HTTP can cost with this statement: a bare route that runs it, driven the same way.
    const statementBehindRoute = usingTickets(await makeTickets(), statement);
    bare.post("/api/ticket-statement", async (_request, reply) => {
      await statementBehindRoute();
      return reply.type("application/json").send(sample);
    });
    await bare.ready();
    // A bare route that failed would answer fast and count: each answer must be the 200 it should be.
    const post = async (url: string) => {
      const headers = { "content-type": "application/json" };
      const response = await bare.inject({ method: "POST", url, headers, payload: "{}" });
      if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode} ${response.body}`);
    };

    const [measured, alone, behindRoute] = await interleavedRounds(
      [
        inThisProcess("the exchange", exchange),
        inThisProcess("its statement alone", statementAlone),
        inThisProcess("its statement behind a bare route", () => post("/api/ticket-statement")),
      ] as const,
      { inFlight: 1, rounds, roundSeconds, operationsPerRound, warmupOperations },
    );
    const baseline = await sequentialTimings(() => post("/api/ticket"), secondsPerRun * 1000);
    const floor = await sequentialTimings(() => post("/api/ticket-committed"), secondsPerRun * 1000);
    await bare.close();

    const bareMeasurement = timedMeasurement("bare Fastify route with the same JSON", baseline);
    const exchanges = timedMeasurement("ticket exchanges (app secret, ticket, person, audit)", measured);
    const floorMeasurement = timedMeasurement("bare Fastify route committing one insert first", floor);
    const statementMeasurement = timedMeasurement("the exchange's one statement alone, no HTTP", alone);
    const statementRoute = timedMeasurement("bare Fastify route running the exchange's statement", behindRoute);
    const alternating = `${rounds} alternating rounds of at most ${operationsPerRound} each (${measured.operations}, ${alone.operations} and ${behindRoute.operations} done)`;
    return [
      {
        subject: exchanges,
        baseline: bareMeasurement,
        method: `app.inject, one request in flight, tickets made beforehand, ${bench.databaseKind}`,
      },
      {
        subject: floorMeasurement,
        baseline: bareMeasurement,
        method: `the floor of any answer that must commit first (a ticket's use), same driver, ${bench.databaseKind}`,
      },
      {
        subject: exchanges,
        baseline: floorMeasurement,
        method: `issue 41's goal ≥ 0.8× this floor (the floor measured after the exchange's rounds), ${bench.databaseKind}`,
      },
      {
        subject: statementMeasurement,
        baseline: floorMeasurement,
        method:
          "one in flight; the exchange's statement with no HTTP and no service code around it against the whole " +
          `floor (measured after the rounds): the most the exchange could reach with this statement, ${bench.databaseKind}`,
      },
      {
        subject: exchanges,
        baseline: statementMeasurement,
        method: `${alternating}; issue 63's goal ≥ 0.85× the exchange's own committed statement, ${bench.databaseKind}`,
        goal: { name: "ticket-exchange", floor: "its-statement-alone", target: 0.85, bound: "atLeast" },
      },
      {
        subject: statementRoute,
        baseline: statementMeasurement,
        method: `${alternating}; what HTTP alone (app.inject and a bare Fastify route) costs the statement: the most the goal's row can reach with this driver, ${bench.databaseKind}`,
      },
      {
        subject: exchanges,
        baseline: statementRoute,
        method: `${alternating}; the service's own code against a bare route running its statement (1.00 = no cost of its own), ${bench.databaseKind}`,
      },
    ];
  } finally {
    await bench.close();
  }
}
