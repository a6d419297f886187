// What `npm test` reads from the suites' JSON reports (scripts/test.ts): the shapes it uses, and each failed test
// as one line for the summary, which is what CI shows of a run (its output's tail).
import { relative } from "node:path";
import { stripVTControlCharacters } from "node:util";

export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    status: string;
    message: string;
    assertionResults: { status: string; fullName: string; failureMessages?: string[] }[];
  }[];
}

export interface PlaywrightSuiteReport {
  file: string;
  specs?: {
    title: string;
    tests: { status: string; results: { duration: number; error?: { message?: string } }[] }[];
  }[];
  suites?: PlaywrightSuiteReport[];
}

/** The first line of an error's text that says something, without terminal colours. */
export function firstLine(message: string | undefined): string {
  const line = stripVTControlCharacters(message ?? "")
    .split("\n")
    .find((text) => text.trim() !== "");
  return line?.trim().slice(0, 300) ?? "no message";
}

export function vitestFailures(report: VitestReport): string[] {
  return report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === "failed")
      .map(
        (test) => `${relative(process.cwd(), file.name)} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`,
      ),
  );
}

/** The browser tests that failed on every try ("unexpected"), with the last try's error. */
export function playwrightFailures(suites: PlaywrightSuiteReport[]): string[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === "unexpected")
        .map((test) => `e2e/specs/${suite.file} › ${spec.title}: ${firstLine(test.results.at(-1)?.error?.message)}`),
    ),
    ...playwrightFailures(suite.suites ?? []),
  ]);
}

/**
 * Vitest's unhandled errors (a timer firing after its file's environment was torn down, a rejection nobody
 * awaited) fail the run but are not in its JSON report: the first line of each and the file it names, from
 * the printed "Unhandled Errors" section.
 */
export function unhandledErrors(output: string): string[] {
  const lines = stripVTControlCharacters(output).split("\n");
  const start = lines.findIndex((line) => line.includes("Unhandled Errors"));
  if (start < 0) return [];
  const found: string[] = [];
  for (let index = start; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (/^\s*Test Files\s/.test(line)) break;
    if (/(Uncaught Exception|Unhandled Rejection|Unhandled Error)\s*⎯/.test(line)) {
      const message = lines.slice(index + 1).find((next) => next.trim() !== "") ?? "unknown error";
      const origin = lines.slice(index + 1).find((next) => next.includes("This error originated in"));
      const file = origin ? /originated in "([^"]+)"/.exec(origin)?.[1] : undefined;
      found.push(file ? `${message.trim()} (in ${file})` : message.trim());
    }
  }
  return found;
}
