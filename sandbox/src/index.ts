import { startBankIdSandbox } from "./bankid/index.ts";
import { startDiiaSandbox } from "./diia/index.ts";
import { startGoogleSandbox } from "./google/index.ts";
import { startMailSandbox } from "./mail/index.ts";
import type { RunningStandIn, SandboxOptions } from "./stand-in.ts";

export type { RunningStandIn, SandboxOptions } from "./stand-in.ts";

export interface RunningSandbox {
  standIns: RunningStandIn[];
  env: Record<string, string>;
  close(): Promise<void>;
}

type StandInStarter = (options: SandboxOptions) => Promise<RunningStandIn | undefined>;

// Each stand-in registers its starter here.
const starters: StandInStarter[] = [startGoogleSandbox, startDiiaSandbox, startBankIdSandbox, startMailSandbox];

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const standIns: RunningStandIn[] = [];
  for (const start of starters) {
    const standIn = await start(options);
    if (standIn) standIns.push(standIn);
  }
  return {
    standIns,
    env: Object.assign({}, ...standIns.map((standIn) => standIn.env)),
    close: async () => {
      await Promise.all(standIns.map((standIn) => standIn.close()));
    },
  };
}
