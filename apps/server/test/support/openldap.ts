import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect, type NetConnectOpts } from "node:net";
import { join, resolve } from "node:path";
import type { CreatedLdapPassword } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import { createUser } from "../../src/model/users/service.ts";
import { postJson } from "./app.ts";
import { signIn } from "./campus.ts";
import { makeCertificates, type RunningProcess, startProcess } from "./freeradius.ts";
import { freePort } from "./listening.ts";

/** The shipped OpenLDAP configuration (deploy/openldap). */
export const shippedOpenldap = resolve(import.meta.dirname, "../../../../deploy/openldap");

/**
 * A throw-away CA and slapd's certificate for 127.0.0.1 (what clients check with StartTLS): the eduroam test's CA
 * and its certificate named for 127.0.0.1 (server and client use), copied under the names slapd.conf gives.
 */
function makeTlsFiles(dir: string): void {
  makeCertificates(dir);
  cpSync(join(dir, "radsec-local.pem"), join(dir, "server.pem"));
  cpSync(join(dir, "radsec-local.key"), join(dir, "server.key"));
}

export interface TestSlapd {
  /** ldap://127.0.0.1:<port> (StartTLS). */
  url: string;
  /** slapd's ldapi socket: KPI ID's LDAP_LDAPI_PATH. */
  ldapiPath: string;
  /** Where slapd's sock overlay asks: KPI ID's LDAP_BIND_SOCKET. */
  bindSocket: string;
  /** The CA clients trust (LDAPTLS_CACERT). */
  caFile: string;
  /** The mdb database's directory (a test wipes it). */
  dataDir: string;
  process: RunningProcess;
  /** Stops slapd (and starts it again with `start`). */
  stop(): Promise<void>;
  start(): Promise<void>;
}

const accepts = (target: NetConnectOpts) =>
  new Promise<boolean>((done) => {
    const socket = connect(target);
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("error", () => done(false));
  });

/**
 * slapd says "slapd starting" once its listeners are bound, before its daemon thread calls listen() on them: on a
 * busy machine a client connecting at once was refused (ECONNREFUSED, 1 start in 20 with two CPU hogs beside the
 * other helpers; `npm run bench -- ldap` crashed so at start-up). Started means both listeners accept.
 */
async function untilAccepting(port: number, ldapiPath: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (const target of [{ host: "127.0.0.1", port }, { path: ldapiPath }]) {
    while (!(await accepts(target))) {
      if (Date.now() > until) throw new Error(`slapd does not accept on ${JSON.stringify(target)}`);
      await new Promise((wait) => setTimeout(wait, 50));
    }
  }
}

/**
 * deploy/openldap's slapd.conf rendered for a test: schema, TLS files, database and sockets in `dir`, and
 * nothing else changed; checked with slaptest, converted to cn=config (slapd.d) at the first start, and started
 * on a loopback port and an ldapi socket in `dir`.
 */
export async function startTestSlapd(dir: string): Promise<TestSlapd> {
  const tls = join(dir, "tls");
  makeTlsFiles(tls);
  cpSync(join(shippedOpenldap, "schema"), join(dir, "schema"), { recursive: true });
  for (const sub of ["run", "data", "slapd.d"]) mkdirSync(join(dir, sub), { recursive: true });
  let text = readFileSync(join(shippedOpenldap, "slapd.conf"), "utf8");
  for (const [from, to] of [
    ["/etc/kpi-id/openldap/schema", join(dir, "schema")],
    ["/etc/kpi-id/openldap/tls", tls],
    ["/run/kpi-id", join(dir, "run")],
    ["/var/lib/kpi-id/openldap", join(dir, "data")],
  ] as const) {
    if (!text.includes(from)) throw new Error(`slapd.conf: ${from} not found`);
    text = text.replaceAll(from, to);
  }
  writeFileSync(join(dir, "slapd.conf"), text);
  execFileSync("slaptest", ["-u", "-f", join(dir, "slapd.conf")], { stdio: "pipe" });
  const port = await freePort();
  const ldapiPath = join(dir, "run", "ldapi");
  const listeners = `ldap://127.0.0.1:${port}/ ldapi://${encodeURIComponent(ldapiPath)}`;
  // The first start converts slapd.conf into cn=config (slapd.d), as docs/ldap.md says; later starts read slapd.d
  // alone, with the access rules KPI ID wrote into it.
  const launch = async (convert: boolean) => {
    const started = await startProcess(
      "slapd",
      ["-d", "stats", ...(convert ? ["-f", join(dir, "slapd.conf")] : []), "-F", join(dir, "slapd.d"), "-h", listeners],
      {},
      /slapd starting/,
    );
    await untilAccepting(port, ldapiPath);
    return started;
  };
  const slapd: TestSlapd = {
    url: `ldap://127.0.0.1:${port}`,
    ldapiPath,
    bindSocket: join(dir, "run", "ldap-bind.sock"),
    caFile: join(tls, "ca.pem"),
    dataDir: join(dir, "data"),
    process: await launch(true),
    stop: () => slapd.process.stop(),
    async start() {
      slapd.process = await launch(false);
    },
  };
  return slapd;
}

/** Waits until `check` holds, at most `timeoutMs`: a bounded wait that fails, never a timing measurement. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms${last ? `: ${String(last)}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A person with a KPI ID password, in a unit, holding one application password made through the account API. */
export async function personWithApplicationPassword(
  app: FastifyInstance,
  person: { username: string; fullName: string; studentId: string; unit?: string; email?: string; taxId?: string },
  accountPassword: string,
): Promise<{ id: string; created: CreatedLdapPassword }> {
  const { unit, ...fields } = person;
  const user = await createUser(app.db, app.passwordHasher, fields, accountPassword, unit ? { studentUnit: unit } : {});
  const cookie = await signIn(app, person.username, accountPassword);
  const response = await postJson(app, "/api/account/ldap", { name: "Lab computers" }, { headers: { cookie } });
  if (response.statusCode !== 200) throw new Error(`no application password: ${response.statusCode} ${response.body}`);
  return { id: user.id, created: response.json() };
}

export interface ToolRun {
  code: number;
  out: string;
}

/**
 * ldap-utils against the test's slapd over StartTLS (the CA trusted, its certificate demanded), run without
 * blocking: the responder answering slapd runs in the test's own process.
 */
export function ldapTools(slapd: TestSlapd) {
  const run = (command: string, args: string[]): Promise<ToolRun> =>
    new Promise((resolve) => {
      execFile(
        command,
        args,
        { env: { ...process.env, LDAPTLS_CACERT: slapd.caFile, LDAPTLS_REQCERT: "demand" }, timeout: 15_000 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
          resolve({ code, out: `${stdout}${stderr}` });
        },
      );
    });
  const whoami = (dn: string, password: string, startTls = true) =>
    run("ldapwhoami", ["-H", slapd.url, ...(startTls ? ["-ZZ"] : []), "-x", "-D", dn, "-w", password]);
  const search = (dn: string, password: string, searchBase: string, filter: string, attributes: string[] = []) =>
    run("ldapsearch", [
      "-LLL",
      "-H",
      slapd.url,
      "-ZZ",
      "-x",
      "-D",
      dn,
      "-w",
      password,
      "-b",
      searchBase,
      filter,
      ...attributes,
    ]);
  return { run, whoami, search };
}
