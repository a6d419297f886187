import { useSyncExternalStore } from "react";

/** The spec's mobile breakpoint. */
export const MOBILE_QUERY = "(max-width: 767.98px)";

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", notify);
      return () => list.removeEventListener("change", notify);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** A person who asked their system for less motion (WCAG 2.3.3): no confetti, no spinning, no fades (index.css). */
export const REDUCED_MOTION_QUERY = "(prefers-reduced-motion: reduce)";

export function usePrefersReducedMotion(): boolean {
  return useMediaQuery(REDUCED_MOTION_QUERY);
}

export function useIsMobile(): boolean {
  return useMediaQuery(MOBILE_QUERY);
}
