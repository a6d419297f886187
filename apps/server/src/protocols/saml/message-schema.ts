import { createRequire } from "node:module";
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import { samlSchemas, XmlRefusedError } from "./xml-guard.ts";

/**
 * The schema check of every SAML message KPI ID reads (samlify's validator: AuthnRequests, logout messages), in one
 * worker thread that stays. xmllint-wasm's own validateXML starts a new thread for every document, which loads
 * libxml2 again: about 180 ms of CPU for each AuthnRequest, ten times a password check (found by the campus rush,
 * docs/capacity.md); in a thread that stays, about 45 ms (libxml2 still parses the schemas for each document: its
 * command line is all xmllint-wasm offers). The same libxml2, the same schemas, the same answer. Documents are checked
 * one after another; metadata and federation aggregates (large, rare) keep xmllint-wasm's thread of their own.
 */

/** The worker: xmllint-wasm's libxml2 program, run once per document, answering on the port it is given. */
const workerSource = `
const { workerData } = require("node:worker_threads");
// Requiring the program also registers xmllint-wasm's own listener on parentPort, to which nothing is posted.
const run = require(workerData.program);
const port = workerData.port;
const decode = (bytes) => new TextDecoder().decode(Uint8Array.from(bytes));
let turn = Promise.resolve();
port.on("message", ({ id, options }) => {
  turn = turn.then(() => new Promise((done) => {
    const stderr = [];
    const answer = (exitCode) => { port.postMessage({ id, exitCode, stderr: decode(stderr) }); done(); };
    run({
      inputFiles: options.inputFiles,
      arguments: options.args,
      stdout: () => {},
      stderr: (byte) => stderr.push(byte),
      onExit: answer,
      wasmMemory: new WebAssembly.Memory({ initial: options.initialMemory, maximum: options.maxMemory }),
    }).catch((error) => { stderr.push(...Buffer.from(String(error))); answer(-1); });
  }));
});
`;

interface Answer {
  id: number;
  exitCode: number;
  stderr: string;
}

interface Running {
  port: MessagePort;
  waiting: Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>;
}

let running: Running | undefined;
let nextId = 0;

function start(): Running {
  const program = createRequire(import.meta.url).resolve("xmllint-wasm/xmllint-node.js");
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(workerSource, { eval: true, workerData: { program, port: port2 }, transferList: [port2] });
  const started: Running = { port: port1, waiting: new Map() };
  port1.on("message", (answer: Answer) => {
    started.waiting.get(answer.id)?.resolve(answer);
    started.waiting.delete(answer.id);
    if (started.waiting.size === 0) port1.unref();
  });
  // Idle, it keeps nothing alive; a document being checked keeps the process up until its answer (see below).
  worker.unref();
  port1.unref();
  // A thread that died (out of memory on a hostile document) fails what it held; the next document starts another.
  const fail = (error: Error) => {
    if (running === started) running = undefined;
    for (const each of started.waiting.values()) each.reject(error);
    started.waiting.clear();
    port1.unref();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the SAML schema worker exited (${code})`)));
  return started;
}

/** WebAssembly pages of 64 KiB: as xml-guard.ts gives xmllint-wasm (the most is reserved, not used). */
const memory = { initial: 256, maximum: 16384 };

/** Validates a SAML message against the SAML schemas; throws XmlRefusedError when it does not conform. */
export async function validateSamlMessageSchema(xml: string): Promise<void> {
  running ??= start();
  const { port, waiting } = running;
  const id = nextId++;
  const options = {
    inputFiles: [{ fileName: "document.xml", contents: xml }, samlSchemas.entry, ...samlSchemas.preload],
    args: ["--schema", samlSchemas.entry.fileName, "--noout", "document.xml"],
    initialMemory: memory.initial,
    maxMemory: memory.maximum,
  };
  const answer = await new Promise<Answer>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    port.ref();
    port.postMessage({ id, options });
  });
  if (answer.exitCode === 0) return;
  // libxml2's lines are "file:line: message"; the last says whether the document validates.
  const first = answer.stderr.split("\n").find((line) => line.trim() !== "" && !line.trim().endsWith(" validates"));
  const message = first?.split(":").slice(2).join(":").trim() || first || "invalid";
  if (answer.exitCode === 3 || answer.exitCode === 4) throw new XmlRefusedError(`schema: ${message}`);
  throw new Error(`the SAML schema check failed (${answer.exitCode}): ${message}`);
}
