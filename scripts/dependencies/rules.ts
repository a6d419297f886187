// The source rules of the dependency check, each with its switch (issue 58: each was turned on in its own commit).
import { areaLoopViolations, areaSurfaceViolations, tableReaderViolations, transactionViolations } from "./areas.ts";
import { layoutMatchesTree } from "./layout.ts";
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
  /**
   * `root`: the checked tree's folder; `ownTree`: the repository itself, not a small tree of the checker's tests
   * (they declare no surfaces).
   */
  check(files: readonly SourceFile[], context: { root: string; ownTree: boolean }): Violation[];
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
    // Issue 76: other areas and layers import an area's surface only.
    name: "area-surface",
    enforced: true,
    summary: "imports into model/<area> from outside go to its surface (areaSurfaces in table-owners.ts)",
    check: (files, { ownTree }) => areaSurfaceViolations(files, ownTree),
  },
  {
    // Issue 76: another area's tables are read through the owner's functions.
    name: "table-reader",
    enforced: true,
    summary: "a table is named (read, joined, written) only in its owner's folder",
    check: tableReaderViolations,
  },
  {
    name: "no-area-loop",
    enforced: true,
    summary: "no model area reaches itself through other areas' imports",
    check: (files) => areaLoopViolations(files),
  },
  {
    name: "transactions-only-in-model",
    enforced: true,
    summary: "a transaction is opened only in model/* (platform/db's helpers are the model's)",
    check: transactionViolations,
  },
  {
    name: "layout-matches-tree",
    enforced: true,
    summary: "the server's folders are its layers; docs/architecture.md's layer table and README's Layout name them",
    check: (files, { root }) => layoutMatchesTree(files, root),
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
