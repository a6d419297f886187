import type { FastifyInstance } from "fastify";
import { cleanUpExpired } from "../../model/housekeeping/clean-up.ts";
import { protocols } from "../../protocols/registry.ts";
import { guestJobOf, runGuestJob } from "./guests.ts";

const cleanupIntervalMs = 10 * 60 * 1000;

/** Every ten minutes while the app runs, one instance at a time; failures are logged, never thrown. */
export function scheduleCleanup(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  const runOnce = async () => {
    try {
      const { auditRetentionDays, signInHistoryRetentionDays, anonymiseLeftAfterDays } = app.config;
      const counts = await cleanUpExpired(app.db, app.clock(), {
        auditRetentionDays,
        signInHistoryRetentionDays,
        anonymiseLeftAfterDays,
        // The protocols' own expired rows, as their records say (protocols/record.ts).
        parts: protocols,
      });
      if (counts) app.log.info({ removed: counts }, "expired rows cleaned up");
      else app.log.debug("clean-up skipped: another instance holds the lock");
      // Guests' reminders, ends and erasure claim their rows one by one: every instance may run them.
      const guests = await runGuestJob(guestJobOf(app));
      if (Object.values(guests).some((count) => count > 0)) app.log.info({ guests }, "guests' job ran");
    } catch (error) {
      app.log.warn({ err: error }, "clean-up failed; the next run tries again");
    }
  };
  app.addHook("onReady", async () => {
    timer = setInterval(runOnce, cleanupIntervalMs);
    // Clean-up never keeps the process alive on its own.
    timer.unref();
  });
  app.addHook("onClose", async () => clearInterval(timer));
}
