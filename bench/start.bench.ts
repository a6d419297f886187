import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@kpi-id/server/testing";
import { startBankIdStandIn } from "../sandbox/src/bankid/index.ts";
import { measureStart, median, type StartOptions, type StartRun } from "../scripts/start-time.ts";
import { generatedTrustList } from "./lib/trust-list.ts";
import type { Comparison } from "./lib/types.ts";

export const title = "A second `npm start`: to the first answer of /health (issue 62)";

const root = fileURLToPath(new URL("../", import.meta.url));
const runs = Number(process.env.BENCH_START_RUNS ?? 3);
/** The published list of qualified CAs (`CACertificates.p7b`) holds 771 certificates. */
const trustListSize = 771;

const seconds = (list: StartRun[], pick: (run: StartRun) => number | undefined) =>
  median(list.flatMap((each) => pick(each) ?? [])) / 1000;

/**
 * Issue 80: the service alone with BankID configured, its trust list a 771-certificate .p7b (generated CAs and
 * the stand-in's own) against the stand-in's one CA, alternated. The difference is the list's cost at start.
 */
async function trustListStart(alone: StartOptions): Promise<Comparison[]> {
  const standIn = await startBankIdStandIn({ productUrl: `http://127.0.0.1:${alone.port}`, port: 0 });
  try {
    const bundle = generatedTrustList(trustListSize, standIn.pki.ca.certificate.as_pem());
    const withOne = { ...alone, env: { ...alone.env, ...standIn.env } };
    const withList = { ...withOne, env: { ...withOne.env, BANKID_TRUST_ANCHORS: bundle } };
    const listed: StartRun[] = [];
    const single: StartRun[] = [];
    for (let index = 0; index < runs; index++) {
      listed.push(await measureStart(withList));
      single.push(await measureStart(withOne));
    }
    const method = `the service alone, median of ${runs} runs each, alternated; generated DSTU 4145 CAs (.bench/)`;
    return [
      {
        subject: {
          label: `BankID with a ${trustListSize}-CA .p7b: to the first answer`,
          value: seconds(listed, (r) => r.firstAnswer),
          unit: "s",
        },
        baseline: {
          label: "BankID with its one CA: to the first answer",
          value: seconds(single, (r) => r.firstAnswer),
          unit: "s",
        },
        method,
        goal: { name: "trust-list-start", floor: "one-ca", target: 1, bound: "atMost", measure: "difference" },
      },
      {
        subject: {
          label: `BankID with a ${trustListSize}-CA .p7b: CPU used by then`,
          value: seconds(listed, (r) => r.cpu),
          unit: "s",
        },
        baseline: {
          label: "BankID with its one CA: CPU used by then",
          value: seconds(single, (r) => r.cpu),
          unit: "s",
        },
        method: `${method}; the figure a busy machine moves less`,
      },
    ];
  } finally {
    await standIn.close();
  }
}

/**
 * `npm start` on a DATA_DIR of its own, started once unmeasured (a build if its inputs changed, the database made
 * and seeded, the stand-ins' keys made), then `runs` times, each followed by the floor: the service alone
 * (`node apps/server/bin/kpi-id-server.js`) on the same database, as production starts it, without the npm
 * process, the build check, the stand-ins and the demo site. Both on the embedded database (DATABASE_URL unset).
 */
export async function run(): Promise<Comparison[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "kpi-id-bench-start-"));
  try {
    const [port, google, diia, mail, bankId, demo] = await Promise.all(Array.from({ length: 6 }, () => freePort()));
    const service = { DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: undefined };
    const npmStart = {
      cwd: root,
      port: Number(port),
      allStarted: /KPI ID is running/,
      env: {
        ...service,
        SANDBOX_GOOGLE_PORT: String(google),
        SANDBOX_DIIA_PORT: String(diia),
        SANDBOX_MAIL_PORT: String(mail),
        SANDBOX_BANKID_PORT: String(bankId),
        DEMO_SITE_PORT: String(demo),
      },
    };
    const alone = {
      command: [process.execPath, "apps/server/bin/kpi-id-server.js"] as [string, ...string[]],
      cwd: root,
      port: Number(port),
      env: service,
    };
    await measureStart(npmStart);
    const starts: StartRun[] = [];
    const floors: StartRun[] = [];
    for (let index = 0; index < runs; index++) {
      starts.push(await measureStart(npmStart));
      floors.push(await measureStart(alone));
    }
    const figure = seconds;
    const method = `median of ${runs} runs each, alternated; the embedded database seeded with the demo campus`;
    return [
      {
        subject: {
          label: "npm start, again: to the first answer",
          value: figure(starts, (r) => r.firstAnswer),
          unit: "s",
        },
        baseline: {
          label: "the service alone: to the first answer",
          value: figure(floors, (r) => r.firstAnswer),
          unit: "s",
        },
        method,
      },
      {
        subject: { label: "npm start, again: CPU used by then", value: figure(starts, (r) => r.cpu), unit: "s" },
        baseline: { label: "the service alone: CPU used by then", value: figure(floors, (r) => r.cpu), unit: "s" },
        method: `${method}; user and system time of every process of the start`,
      },
      ...(await trustListStart(alone)),
    ];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
