import { describe, expect, it } from "vitest";
import { CheckRefused, createCheckQueue } from "../../../src/platform/crypto/check-queue.ts";

/** A piece of work that ends when the test says so. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the bounded line of password checks", () => {
  it("runs at most `concurrency` at once and starts the waiting ones first come, first served", async () => {
    const queue = createCheckQueue({ concurrency: 2, maxWaiting: 10, maxWaitMs: 10_000 });
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, () => gate());
    const runs = gates.map((each, index) =>
      queue.run(async () => {
        started.push(index);
        await each.opened;
        return index;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect(queue.running).toBe(2);
    expect(queue.waiting).toBe(3);
    gates[1]?.open();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.open();
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const each of gates) each.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(queue.running).toBe(0);
    expect(queue.waiting).toBe(0);
  });

  it("refuses at once, without running it, a check that finds the line full", async () => {
    const queue = createCheckQueue({ concurrency: 1, maxWaiting: 2, maxWaitMs: 10_000 });
    const refusals: string[] = [];
    queue.onRefused = (reason) => refusals.push(reason);
    const held = gate();
    let ran = 0;
    const work = async () => {
      ran += 1;
      await held.opened;
    };
    const admitted = [queue.run(work), queue.run(work), queue.run(work)];
    const refused = queue.run(work);
    await expect(refused).rejects.toThrow(CheckRefused);
    await expect(refused).rejects.toMatchObject({ reason: "full" });
    expect(refusals).toEqual(["full"]);
    held.open();
    await Promise.all(admitted);
    expect(ran).toBe(3);
  });

  it("refuses a check whose turn does not come within the wait, and it never runs", async () => {
    const queue = createCheckQueue({ concurrency: 1, maxWaiting: 5, maxWaitMs: 20 });
    const held = gate();
    const first = queue.run(() => held.opened);
    let lateRan = false;
    const late = queue.run(async () => {
      lateRan = true;
    });
    await expect(late).rejects.toMatchObject({ reason: "timeout" });
    expect(queue.waiting).toBe(0);
    held.open();
    await first;
    await settle();
    expect(lateRan).toBe(false);
  });

  it("skips the checks whose client has gone and gives their turn to the next", async () => {
    const queue = createCheckQueue({ concurrency: 1, maxWaiting: 5, maxWaitMs: 10_000 });
    const held = gate();
    const first = queue.run(() => held.opened);
    let clientGone = false;
    let abandonedRan = false;
    const abandoned = queue.run(
      async () => {
        abandonedRan = true;
      },
      () => clientGone,
    );
    const next = queue.run(async () => "next");
    clientGone = true;
    held.open();
    await first;
    await expect(abandoned).rejects.toMatchObject({ reason: "abandoned" });
    expect(await next).toBe("next");
    expect(abandonedRan).toBe(false);
  });

  it("reports each check's wait for its turn and its run, and frees the place when the work throws", async () => {
    let clock = 0;
    const queue = createCheckQueue({ concurrency: 1, maxWaiting: 5, maxWaitMs: 10_000 }, () => clock);
    const timings: { waitedMs: number; ranMs: number }[] = [];
    queue.onTiming = (timing) => timings.push(timing);
    const held = gate();
    const first = queue.run(async () => {
      await held.opened;
      clock += 30;
      throw new Error("argon2 failed");
    });
    const second = queue.run(async () => {
      clock += 10;
    });
    clock += 5;
    held.open();
    await expect(first).rejects.toThrow("argon2 failed");
    await second;
    expect(timings).toEqual([
      { waitedMs: 0, ranMs: 35 },
      { waitedMs: 35, ranMs: 10 },
    ]);
  });
});
