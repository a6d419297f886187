/**
 * Records the text each live region (role="status") holds when it enters the page. A test that waits for the status
 * to appear (`findByRole`) cannot then see it empty for sure: its words go in 100 ms later (live-status.tsx), and a
 * loaded machine can take longer than that to resolve the wait. A MutationObserver's callback runs right after the
 * DOM change, before any timer, so what it reads is what a screen reader met.
 */
export function recordStatusesEntering(root: Node = document.body) {
  const entered = new Map<Element, string>();
  const note = (element: Element) => {
    if (element.getAttribute("role") === "status" && !entered.has(element)) {
      entered.set(element, element.textContent ?? "");
    }
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        note(node);
        for (const inside of node.querySelectorAll('[role="status"]')) note(inside);
      }
    }
  });
  observer.observe(root, { childList: true, subtree: true });
  return {
    /** The status's text when it entered, or undefined if it entered before the recording began. */
    textWhenEntered: (status: Element) => entered.get(status),
    stop: () => observer.disconnect(),
  };
}
