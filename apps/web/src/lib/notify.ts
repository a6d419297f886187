import type { ExternalToast } from "sonner";

type Sonner = typeof import("sonner");

/** A promise and the function that resolves it, for a moment that happens once in the page's life. */
function once(): { reached: Promise<void>; reach: () => void } {
  let reach: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    reach = resolve;
  });
  return { reached, reach };
}

let sonner: Promise<Sonner> | undefined;
const mounted = once();
const wanted = once();

/**
 * Resolves at the first toast. The toaster mounts only then: evaluating sonner and injecting its styles at
 * start-up was a long task in every page's first seconds on a slow phone, for a toast most visits never see.
 */
export function whenToastWanted(): Promise<void> {
  return wanted.reached;
}

/** Sonner loads at the first toast (it is not needed to show any screen); asked once, shared. */
export function loadSonner(): Promise<Sonner> {
  sonner ??= import("sonner");
  return sonner;
}

/** The toaster calls this once it listens; a toast raised earlier waits for it instead of being lost. */
export function toasterListening(): void {
  mounted.reach();
}

/** Shows a toast once sonner has loaded and the toaster listens. */
export function notify(kind: "error" | "success", message: string, options?: ExternalToast): void {
  wanted.reach();
  void Promise.all([loadSonner(), mounted.reached]).then(([{ toast }]) => toast[kind](message, options));
}
