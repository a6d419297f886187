/** What one fault or check did: what was sent, what failed (and why), what was lost. */
export interface ScenarioReport {
  name: string;
  sent: number;
  failed: number;
  /** Failures by cause, e.g. "502 (held by instance a when it died)". */
  failures: Record<string, number>;
  /** Sessions answered with a cookie that no longer work afterwards; must be zero. */
  lost: number;
  notes: string[];
  /** Broken expectations; empty when the scenario passed. */
  problems: string[];
}

export function newReport(name: string): ScenarioReport {
  return { name, sent: 0, failed: 0, failures: {}, lost: 0, notes: [], problems: [] };
}

/** The report of a scenario that threw instead of finishing: its error is its one problem. */
export function crashedReport(name: string, error: unknown): ScenarioReport {
  return { ...newReport(name), problems: [`crashed: ${error instanceof Error ? error.stack : String(error)}`] };
}

export function countFailure(report: ScenarioReport, cause: string): void {
  report.failed += 1;
  report.failures[cause] = (report.failures[cause] ?? 0) + 1;
}

export function expect(report: ScenarioReport, condition: boolean, problem: string): void {
  if (!condition) report.problems.push(problem);
}

export function printReport(report: ScenarioReport): void {
  const verdict = report.problems.length === 0 && report.lost === 0 ? "PASS" : "FAIL";
  console.log(`\n[${verdict}] ${report.name}`);
  console.log(`  sent:   ${report.sent} requests`);
  const causes = Object.entries(report.failures)
    .map(([cause, count]) => `${count} × ${cause}`)
    .join("; ");
  console.log(`  failed: ${report.failed}${causes ? ` (${causes})` : ""}`);
  console.log(`  lost:   ${report.lost} sessions`);
  for (const note of report.notes) console.log(`  - ${note}`);
  for (const problem of report.problems) console.log(`  ✗ ${problem}`);
}

export const passed = (report: ScenarioReport) => report.problems.length === 0 && report.lost === 0;
