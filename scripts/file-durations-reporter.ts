// A vitest reporter for `npm test` (scripts/test.ts): writes each test file's time, its tests and
// hooks together (what the default reporter prints beside the file), to FILE_DURATIONS_OUTPUT as JSON.
import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export interface FileDuration {
  file: string;
  milliseconds: number;
}

export default class FileDurationsReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const output = process.env.FILE_DURATIONS_OUTPUT;
    if (!output) return;
    const durations: FileDuration[] = testModules.map((module) => ({
      file: relative(process.cwd(), module.moduleId),
      milliseconds: module.diagnostic().duration,
    }));
    writeFileSync(output, JSON.stringify(durations));
  }
}
