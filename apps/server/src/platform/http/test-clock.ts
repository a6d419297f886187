import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ConfigError } from "../config/error.ts";
import type { Config } from "../config/index.ts";

/**
 * A server clock the end-to-end tests move forward instead of sleeping: a sign-in going stale
 * (REAUTH_MAX_AGE_SECONDS), a Diia request expiring. Only with TEST_CLOCK=true in sandbox mode, and
 * refused when NODE_ENV=production, so a deployment can never have a clock anyone may set.
 */
export interface TestClock {
  now(): Date;
  advance(seconds: number): void;
  reset(): void;
  offsetSeconds(): number;
}

export function createTestClock(): TestClock {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance: (seconds) => {
      offsetMs += seconds * 1000;
    },
    reset: () => {
      offsetMs = 0;
    },
    offsetSeconds: () => offsetMs / 1000,
  };
}

/** Whether this start gets a movable clock: TEST_CLOCK=true, sandbox mode, never production. */
export function testClockWanted(
  config: Pick<Config, "env" | "sandbox">,
  environment: Record<string, string | undefined> = process.env,
): boolean {
  if (environment.TEST_CLOCK === undefined || environment.TEST_CLOCK === "false") return false;
  if (environment.TEST_CLOCK !== "true") throw new ConfigError("TEST_CLOCK: true or false");
  if (config.env === "production") {
    throw new ConfigError("TEST_CLOCK: a clock the tests can move is refused when NODE_ENV=production");
  }
  if (!config.sandbox) throw new ConfigError("TEST_CLOCK: a clock the tests can move needs sandbox mode");
  return true;
}

const clockChange = z.union([
  z
    .object({
      advanceSeconds: z
        .number()
        .int()
        .min(1)
        .max(7 * 24 * 3600),
    })
    .strict(),
  z.object({ reset: z.literal(true) }).strict(),
]);

/**
 * POST /api/test/clock {advanceSeconds} moves the clock forward, {reset: true} back to real time.
 * Registered by server.ts only when testClockWanted, so it is not in the service's API otherwise.
 */
export function registerTestClockRoute(app: FastifyInstance, clock: TestClock): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post("/api/test/clock", { schema: { hide: true, body: clockChange } }, async (request) => {
      if ("reset" in request.body) clock.reset();
      else clock.advance(request.body.advanceSeconds);
      request.log.warn({ offsetSeconds: clock.offsetSeconds() }, "the test clock moved");
      return { offsetSeconds: clock.offsetSeconds() };
    });
}
