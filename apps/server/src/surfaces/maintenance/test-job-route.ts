import type { FastifyInstance } from "fastify";
import { guestJobOf, runGuestJob } from "./guests.ts";

/**
 * POST /api/test/jobs/guests runs the guests' job once, now, on the server's (movable) clock: the browser suite
 * moves the clock past a guest's last day and watches the real job disable them, instead of waiting for the
 * ten-minute timer (cleanup.ts). Registered by server.ts only beside the test clock (TEST_CLOCK=true, sandbox,
 * never production), so it is not in the service's API otherwise.
 */
export function registerTestJobRoute(app: FastifyInstance): void {
  app.post("/api/test/jobs/guests", { schema: { hide: true } }, async (request) => {
    const counts = await runGuestJob(guestJobOf(app));
    request.log.warn({ counts }, "the guests' job ran on the test's request");
    return counts;
  });
}
