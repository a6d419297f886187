import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { keyMaterial } from "./key-material.ts";

/** The shipped FreeRADIUS configuration (deploy/freeradius). */
export const shippedFreeradius = resolve(import.meta.dirname, "../../../../deploy/freeradius");

const openssl = (args: string[], cwd: string) => execFileSync("openssl", args, { cwd, stdio: "pipe" });

/**
 * A test CA and what it issues: the EAP server certificate (radius.kpi.ua, what devices check) and RadSec
 * certificates for the two radsecproxies (ours and the national proxy's stand-in), named for 127.0.0.1. Seven
 * openssl runs, made once per worker (support/key-material.ts) and copied into `dir`.
 */
export function makeCertificates(dir: string): void {
  mkdirSync(dir, { recursive: true });
  keyMaterial("freeradius test CA, 2 days", dir, makeCertificatesIn);
}

function makeCertificatesIn(dir: string): void {
  openssl(
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
      "-days",
      "2",
      "-subj",
      "/CN=KPI ID test CA",
    ],
    dir,
  );
  for (const [name, subject, names] of [
    // Devices check the EAP server's name (domain_match, Android's "Domain", iOS's trusted server names).
    ["server", "/CN=radius.kpi.ua", "DNS:radius.kpi.ua"],
    ["radsec-local", "/CN=radsec.kpi.ua", "IP:127.0.0.1"],
    ["radsec-national", "/CN=national-proxy.test", "IP:127.0.0.1"],
  ] as const) {
    openssl(
      ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", subject],
      dir,
    );
    writeFileSync(join(dir, `${name}.ext`), `subjectAltName=${names}\nextendedKeyUsage=serverAuth,clientAuth\n`);
    openssl(
      [
        "x509",
        "-req",
        "-in",
        `${name}.csr`,
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        `${name}.pem`,
        "-days",
        "2",
        "-extfile",
        `${name}.ext`,
      ],
      dir,
    );
  }
}

export interface FreeradiusPorts {
  auth: number;
  /** Accounting from the controllers (acct_port). */
  acct: number;
  /** KPI ID's Disconnect-Requests (coa_port, sites-available/kpi-id-coa). */
  coa: number;
  radsecproxyUdp: number;
}

/**
 * The controller of the tests' access point: eapol_test and radclient send from 127.0.0.1, FreeRADIUS's `localhost`
 * client, so its CoA home server and pool are named `localhost` (clients.conf's per-controller blocks, uncommented).
 */
export interface ControllerCoa {
  port: number;
  secret: string;
}

/**
 * deploy/freeradius copied and rendered for a test: its own directories, ports on loopback, the certificates
 * above, and the daemon left as the user who starts it (no `user = freerad`). Nothing else changes.
 */
export function renderFreeradius(dir: string, certs: string, ports: FreeradiusPorts, controller?: ControllerCoa): void {
  cpSync(shippedFreeradius, dir, { recursive: true });
  mkdirSync(join(dir, "log"));
  mkdirSync(join(dir, "run"));
  for (const file of ["ca.pem", "server.pem", "server.key"]) cpSync(join(certs, file), join(dir, "certs", file));
  const edit = (file: string, changes: [RegExp, string][]) => {
    let text = readFileSync(join(dir, file), "utf8");
    for (const [pattern, replacement] of changes) {
      if (!pattern.test(text)) throw new Error(`${file}: ${pattern} not found`);
      text = text.replace(pattern, replacement);
    }
    writeFileSync(join(dir, file), text);
  };
  // raddbdir is left alone: it follows -d, wherever the copy is.
  edit("radiusd.conf", [
    [/^logdir = .*$/m, `logdir = ${dir}/log`],
    [/^run_dir = .*$/m, `run_dir = ${dir}/run`],
    [/^auth_port = .*$/m, `auth_port = ${ports.auth}`],
    [/^acct_port = .*$/m, `acct_port = ${ports.acct}`],
    [/^coa_port = .*$/m, `coa_port = ${ports.coa}`],
    [/^\tuser = freerad$/m, ""],
    [/^\tgroup = freerad$/m, ""],
  ]);
  edit("sites-available/kpi-id", [[/ipaddr = \*/g, "ipaddr = 127.0.0.1"]]);
  edit("proxy.conf", [[/port = 11812/, `port = ${ports.radsecproxyUdp}`]]);
  if (controller) {
    const shipped = readFileSync(join(dir, "clients.conf"), "utf8");
    // The home server and pool of the commented example (the `localhost` client exists already).
    const blocks = shipped
      .slice(shipped.indexOf("# home_server "))
      .split("\n")
      .filter((line) => /^# ?(home_server|\t|})/.test(line))
      .map((line) => line.replace(/^# ?/, ""))
      .join("\n")
      .replaceAll("wlc-1", "localhost")
      .replace(/ipaddr = 10\.0\.0\.11/, "ipaddr = 127.0.0.1")
      .replace(/port = 3799/, `port = ${controller.port}`)
      .replace(/secret = ".*"/, `secret = "${controller.secret}"`);
    writeFileSync(join(dir, "clients.conf"), `${shipped}\n${blocks}\n`);
  }
}

export interface RunningProcess {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Starts a program and resolves once its output says it is ready (or rejects with what it printed). */
export function startProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 30_000,
): Promise<RunningProcess> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  const running: RunningProcess = {
    child,
    output: () => text,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
  return new Promise((resolveStarted, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} did not start in ${timeoutMs} ms:\n${text}`));
    }, timeoutMs);
    let started = false;
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      // Once started, the output is only kept: matching `ready` against all of it at every chunk flattened and
      // scanned the whole text again (a slapd logging each bind spent a fifth of the LDAP bench's CPU so).
      if (started || !ready.test(text)) return;
      started = true;
      clearTimeout(timer);
      resolveStarted(running);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited (${code}) before it was ready:\n${text}`));
    });
  });
}

/** eapol_test's network block for EAP-TTLS/PAP, checking the server's CA and name as a configured device does. */
export function ttlsNetwork(
  caCert: string,
  identity: string,
  password: string,
  anonymous = "anonymous@kpi.ua",
): string {
  return [
    "key_mgmt=WPA-EAP",
    "eap=TTLS",
    `identity="${identity}"`,
    `anonymous_identity="${anonymous}"`,
    `password="${password}"`,
    `ca_cert="${caCert}"`,
    'domain_match="radius.kpi.ua"',
    'phase2="auth=PAP"',
  ].join("\n");
}

export interface EapolResult {
  accepted: boolean;
  output: string;
}

/** eapol_test against the server: the supplicant a laptop runs (wpa_supplicant's EAP), one conversation. */
export function runEapol(
  dir: string,
  name: string,
  network: string,
  server: { port: number; secret: string },
  extra: string[] = [],
): Promise<EapolResult> {
  const conf = join(dir, `${name}.conf`);
  writeFileSync(conf, `network={\n${network}\n}\n`);
  return new Promise((done) => {
    const child = spawn(
      "eapol_test",
      ["-c", conf, "-a", "127.0.0.1", "-p", String(server.port), "-s", server.secret, "-t", "15", ...extra],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.once("exit", (code) => done({ accepted: code === 0 && /\nSUCCESS\s*$/.test(output), output }));
  });
}
