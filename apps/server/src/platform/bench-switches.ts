/**
 * The pieces of the service that exist to make a benchmark faster (issue 76, point 5). Each stays only while the
 * bench shows it pays: `npm run bench -- machinery` switches one off at a time in the same process, in rounds
 * alternating with it on, and prints what it gains (docs/performance.md, "Benchmark-driven machinery"). Off is the
 * path the code would take without the piece. Never a product setting: nothing but the bench switches them.
 */
export const machineryPieces = [
  "deferred-writes",
  "early-write",
  "listen-caches",
  "parsed-clients",
  "precompiled",
  "zod-bypass",
  "compiled-serializer",
] as const;

export type MachineryPiece = (typeof machineryPieces)[number];

const switchedOff = new Set<MachineryPiece>();

/** Whether a piece runs (always, outside the bench). */
export function machineryOn(piece: MachineryPiece): boolean {
  return switchedOff.size === 0 || !switchedOff.has(piece);
}

/** The bench's switch: turns a piece off or on again for the whole process. */
export function switchMachinery(piece: MachineryPiece, on: boolean): void {
  if (on) switchedOff.delete(piece);
  else switchedOff.add(piece);
}
