import type { ExternalToast } from "sonner";

type Sonner = typeof import("sonner");

let sonner: Promise<Sonner> | undefined;
let markMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});

/** Sonner loads after the first screen (it is not needed to show the form); asked once, shared. */
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
  void Promise.all([loadSonner(), mounted]).then(([{ toast }]) => toast[kind](message, options));
}
