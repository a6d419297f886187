import { type RefObject, useEffect, useState } from "react";

/**
 * Whether a sideways-scrolling box hides content to its right: true while its content is wider than the
 * box and it is not scrolled to the end. Followed on resize (a phone turned, fonts loaded, rows arriving)
 * and on scroll.
 */
export function useHiddenColumns(box: RefObject<HTMLElement | null>): { overflows: boolean; moreToTheRight: boolean } {
  const [state, setState] = useState({ overflows: false, moreToTheRight: false });
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      const overflows = element.scrollWidth > element.clientWidth + 1;
      const moreToTheRight = overflows && element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setState((previous) =>
        previous.overflows === overflows && previous.moreToTheRight === moreToTheRight
          ? previous
          : { overflows, moreToTheRight },
      );
    };
    measure();
    element.addEventListener("scroll", measure, { passive: true });
    const observer = typeof ResizeObserver === "undefined" ? undefined : new ResizeObserver(measure);
    observer?.observe(element);
    const table = element.firstElementChild;
    if (table) observer?.observe(table);
    return () => {
      element.removeEventListener("scroll", measure);
      observer?.disconnect();
    };
  }, [box]);
  return state;
}
