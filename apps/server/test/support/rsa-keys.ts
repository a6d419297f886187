// Every server test file runs this first (vitest.config.ts setupFiles). The apps it builds sign with keys made
// earlier in the same worker instead of a new 2048-bit RSA key each (platform/crypto/rsa-keys.ts says why).
// Four keys taken in turn: keys taken fewer than four apart differ, so two apps of one test, or a key and the one a
// rotation makes, do not share key material; each key still gets its own kid, by which tokens find their key.
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { useRsaKeySourceForTests } from "../../src/platform/crypto/rsa-keys.ts";

const ringSize = 4;
const ringKey = Symbol.for("kpi-id.test.rsa-keys");
const globals = globalThis as { [ringKey]?: { keys: KeyObject[]; next: number } };
// On globalThis: Vitest runs this file again before each test file of the worker, and the keys must outlive that.
globals[ringKey] ??= { keys: [], next: 0 };
const ring = globals[ringKey];

useRsaKeySourceForTests(() => {
  const index = ring.next++ % ringSize;
  ring.keys[index] ??= generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  return ring.keys[index];
});
