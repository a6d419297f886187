import { Toaster as Sonner } from "sonner";

/** The spec's toast settings: 4000 ms, three visible, 356 px wide, 14 px apart, 45 px swipe. */
export const toastSettings = { duration: 4000, visibleToasts: 3, gap: 14, width: 356, swipeThreshold: 45 } as const;

export function Toaster() {
  return (
    <Sonner
      duration={toastSettings.duration}
      visibleToasts={toastSettings.visibleToasts}
      gap={toastSettings.gap}
      position="bottom-right"
      richColors
      closeButton
      toastOptions={{ style: { width: toastSettings.width } }}
    />
  );
}
