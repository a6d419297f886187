// The source rules of the dependency check, each with its switch (issue 58: each was turned on in its own commit).
import { ownerTableMatches } from "./owner-table.ts";
import {
  fastifyBelowRoutes,
  requestCodeBelowRoutes,
  type SourceFile,
  sqlOutsideModel,
  tableOwnership,
  type Violation,
} from "./source-rules.ts";
import { planTestPlacement } from "./test-placement.ts";

export interface SourceRule {
  name: string;
  /** Off: reported, not failed (turn one on for a run with --enforce <name>). */
  enforced: boolean;
  summary: string;
  check(files: readonly SourceFile[]): Violation[];
}

export const sourceRules: readonly SourceRule[] = [
  {
    name: "sql-only-in-model",
    enforced: true,
    summary: "SQL (kysely values, sql, statement builders) only in model/* and platform/db",
    check: sqlOutsideModel,
  },
  {
    name: "table-owner",
    enforced: true,
    summary: "a table is written only by its owner (scripts/dependencies/table-owners.ts)",
    check: tableOwnership,
  },
  {
    name: "fastify-only-in-routes",
    enforced: true,
    summary: "Fastify only in surfaces, protocols, sign-in methods and platform/http",
    check: fastifyBelowRoutes,
  },
  {
    // On since the plain parts left platform/http (verified-address, describe-device, redact-url).
    name: "plain-values-below-routes",
    enforced: true,
    summary: "model/* and platform/* (but platform/http) never import platform/http nor reach Fastify through a chain",
    check: requestCodeBelowRoutes,
  },
  {
    name: "owner-table-in-docs",
    enforced: true,
    summary: "docs/architecture.md's table of owners is table-owners.ts's",
    check: ownerTableMatches,
  },
  {
    // On since the tests were placed (issue 58): a test added flat, named or not, fails the check.
    name: "server-tests-mirror-src",
    enforced: true,
    summary: "server tests sit in apps/server/test/<layer>/<area>/ (or attacks/, fuzz/, app/)",
    check: (files) => {
      const plan = planTestPlacement(files.map((file) => file.path));
      return [
        ...plan.moves.map((move) => ({
          rule: "server-tests-mirror-src",
          file: move.from,
          message: `belongs in ${move.to}: node scripts/place-server-tests.ts --apply`,
        })),
        ...plan.unplaced.map((path) => ({
          rule: "server-tests-mirror-src",
          file: path,
          message:
            "sits flat in apps/server/test: put it in the folder of the code it tests (or give its name a prefix in scripts/dependencies/test-placement.ts)",
        })),
      ];
    },
  },
];
