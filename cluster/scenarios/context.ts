import type { RunningDiiaStandIn } from "../../sandbox/src/diia/index.ts";
import type { SeedPerson } from "../lib/database.ts";
import type { Instance } from "../lib/instances.ts";
import type { RunningNginx } from "../lib/nginx.ts";

export interface ClusterContext {
  instances: Instance[];
  nginx: RunningNginx;
  /** PUBLIC_URL's origin (nginx). */
  origin: string;
  diia: RunningDiiaStandIn;
  /** The person the Diia stand-in signs for, with a password too. */
  diiaPerson: SeedPerson & { standInId: string };
  /** People for the shared-session check. */
  people: SeedPerson[];
  /** People for the load under faults, one sign-in each at a time (distinct accounts and addresses). */
  loadPeople: SeedPerson[];
  /** The run's directory (logs, data directories); a scenario may put its own things there. */
  workDir: string;
  /** DATABASE_URL as given: a scenario that needs a database of its own creates it there. */
  databaseAdminUrl: string;
  /** METRICS_TOKEN of every instance: a scrape brings it. */
  metricsToken: string;
  /** Starts instance `index` again on its port after it was killed. */
  restartInstance(index: number): Promise<void>;
}
