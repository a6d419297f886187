import type { ExternalToast } from "sonner";

type Sonner = typeof import("sonner");

let sonner: Promise<Sonner> | undefined;
let markMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});

let markWanted: () => void = () => undefined;
const wanted = new Promise<void>((resolve) => {
  markWanted = resolve;
});

/**
 * Resolves at the first toast. The toaster mounts only then: evaluating sonner and injecting its styles at
 * start-up was a long task in every page's first seconds on a slow phone, for a toast most visits never see.
 */
export function whenToastWanted(): Promise<void> {
  return wanted;
}

/** Sonner loads at the first toast (it is not needed to show any screen); asked once, shared. */
export function loadSonner(): Promise<Sonner> {
  sonner ??= import("sonner");
  return sonner;
}

/** The toaster calls this once it listens; a toast raised earlier waits for it instead of being lost. */
export function toasterListening(): void {
  markMounted();
}

/** Shows a toast once sonner has loaded and the toaster listens. */
export function notify(kind: "error" | "success", message: string, options?: ExternalToast): void {
  markWanted();
  void Promise.all([loadSonner(), mounted]).then(([{ toast }]) => toast[kind](message, options));
}
