// use-sync-external-store's selector hook as an ES module, for the component tests only. The package ships
// CommonJS, whose require("react") the tests' Preact aliases never see, so TanStack Table (the console's
// tables) met a second, unrendered React there. The build converts the CommonJS and aliases it as it should.
// A port of React's own shim (use-sync-external-store/cjs/use-sync-external-store-shim/with-selector).
import { useEffect, useMemo, useRef, useSyncExternalStore } from "react";

export function useSyncExternalStoreWithSelector<Snapshot, Selection>(
  subscribe: (onChange: () => void) => () => void,
  getSnapshot: () => Snapshot,
  getServerSnapshot: undefined | null | (() => Snapshot),
  selector: (snapshot: Snapshot) => Selection,
  isEqual?: (a: Selection, b: Selection) => boolean,
): Selection {
  const instance = useRef<{ hasValue: boolean; value: Selection | null }>({ hasValue: false, value: null }).current;
  const getSelection = useMemo(() => {
    let memoized: { snapshot: Snapshot; selection: Selection } | undefined;
    const select = (next: Snapshot): Selection => {
      if (memoized === undefined) {
        const selection = selector(next);
        if (isEqual && instance.hasValue && isEqual(instance.value as Selection, selection)) {
          memoized = { snapshot: next, selection: instance.value as Selection };
        } else memoized = { snapshot: next, selection };
        return memoized.selection;
      }
      if (Object.is(memoized.snapshot, next)) return memoized.selection;
      const selection = selector(next);
      if (isEqual?.(memoized.selection, selection)) {
        memoized = { snapshot: next, selection: memoized.selection };
        return memoized.selection;
      }
      memoized = { snapshot: next, selection };
      return selection;
    };
    return () => select(getSnapshot());
  }, [getSnapshot, selector, isEqual, instance]);
  const value = useSyncExternalStore(subscribe, getSelection, getServerSnapshot ? getSelection : undefined);
  useEffect(() => {
    instance.hasValue = true;
    instance.value = value;
  }, [instance, value]);
  return value;
}
