import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { throttleAddress } from "../../../src/platform/throttle/address.ts";

/** The run is the same every time (fuzz.test.ts's seed). */
const defaultSeed = 20_261_122;

describe("fuzzing the throttle's client address", () => {
  it("keys every IPv6 address by its /64, whatever its spelling, and IPv4 by the whole address", () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    fc.assert(
      fc.property(
        fc.array(group, { minLength: 8, maxLength: 8 }),
        fc.array(group, { minLength: 4, maxLength: 4 }),
        (groups, other) => {
          const spelled = groups.map((g) => g.toString(16)).join(":");
          const sameNetwork = [...groups.slice(0, 4), ...other].map((g) => g.toString(16).padStart(4, "0")).join(":");
          const key = throttleAddress(spelled, 64);
          expect(key).toBe(throttleAddress(sameNetwork, 64));
          expect(key).toBe(
            `${groups
              .slice(0, 4)
              .map((g) => g.toString(16))
              .join(":")}:0:0:0:0/64`,
          );
        },
      ),
      { numRuns: 2000, seed: defaultSeed },
    );
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        expect(throttleAddress(address, 64)).toBe(address);
        expect(throttleAddress(`::ffff:${address}`, 64)).toBe(address);
      }),
      { numRuns: 2000, seed: defaultSeed },
    );
    fc.assert(
      fc.property(fc.ipV6(), (address) => {
        expect(throttleAddress(address, 64)).toMatch(/^([0-9a-f]{1,4}:){7}[0-9a-f]{1,4}\/64$|^\d+\.\d+\.\d+\.\d+$/);
      }),
      { numRuns: 2000, seed: defaultSeed },
    );
  });
});
