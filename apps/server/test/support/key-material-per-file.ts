// Every server test file runs this first (vitest.config.ts setupFiles): key material asked for in this file counts
// from the first request again (key-material.ts: distinct within a file, reused across a worker's files).
import { startOfTestFile } from "./key-material.ts";

startOfTestFile();
