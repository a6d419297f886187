import { lazy, Suspense, useEffect } from "react";
import { loadSonner, toasterListening } from "@/lib/notify.ts";

/**
 * The spec's toast settings. The swipe threshold (45 px or 0.11 px/ms), the
 * removal delay (200 ms) and pausing while hovered are sonner's own behaviour.
 */
export const toastSettings = { duration: 4000, visibleToasts: 3, gap: 14, width: 356 } as const;

const Sonner = lazy(async () => ({ default: (await loadSonner()).Toaster }));

/** Rendered after sonner's toaster in the same boundary, so its effect runs once the toaster subscribed. */
function Listening() {
  useEffect(toasterListening, []);
  return null;
}

export function Toaster() {
  return (
    <Suspense fallback={null}>
      <Sonner
        duration={toastSettings.duration}
        visibleToasts={toastSettings.visibleToasts}
        gap={toastSettings.gap}
        position="bottom-right"
        richColors
        closeButton
        toastOptions={{ style: { width: toastSettings.width } }}
      />
      <Listening />
    </Suspense>
  );
}
