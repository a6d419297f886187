// A vitest reporter for `npm test` (scripts/test.ts): writes each test file's time, its tests and
// hooks together (what the default reporter prints beside the file), to FILE_DURATIONS_OUTPUT as JSON, with
// the errors raised outside a test (a failed beforeAll or afterAll, a file that did not load). Vitest's JSON
// reporter leaves a suite's hook error out of the file's message, so without these the summary could only say
// that a file failed, not why.
import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";
import { firstLine } from "./test-reports.ts";

export interface FileDuration {
  file: string;
  milliseconds: number;
  /** Errors outside a test, each "where: first line of the message"; absent when there were none. */
  errorsOutsideTests?: string[];
}

function errorsOutsideTests(module: TestModule): string[] {
  const found = module.errors().map((error) => `file: ${firstLine(error.message)}`);
  for (const suite of module.children.allSuites()) {
    for (const error of suite.errors()) found.push(`${suite.fullName}: ${firstLine(error.message)}`);
  }
  return found;
}

export default class FileDurationsReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const output = process.env.FILE_DURATIONS_OUTPUT;
    if (!output) return;
    const durations: FileDuration[] = testModules.map((module) => {
      const errors = errorsOutsideTests(module);
      return {
        file: relative(process.cwd(), module.moduleId),
        milliseconds: module.diagnostic().duration,
        ...(errors.length > 0 ? { errorsOutsideTests: errors } : {}),
      };
    });
    writeFileSync(output, JSON.stringify(durations));
  }
}
