// Every server test file runs this first (vitest.config.ts setupFiles): key material asked for in this file counts
// from the first request again (key-material.ts: distinct within a file, reused across a worker's files).
import { afterAll } from "vitest";
import { endOfTestFile, startOfTestFile } from "./key-material.ts";

startOfTestFile();
// The copies it made of them go when it ends (makeKeyPair's folders: 118 were left in /tmp by one run).
afterAll(endOfTestFile);
