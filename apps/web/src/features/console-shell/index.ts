// console-shell's public surface: what another feature may import from it (biome.json refuses a reach past it).

export {
  askedByScreen,
  askedUnlessRefused,
  consoleKey,
  refusedForGood,
  useApplications,
  useConsoleAction,
  useRoleRefusalsForgotten,
} from "./api/console-api.ts";
export { useServiceStatus } from "./api/service-status.ts";
export { type ConsoleUnit, useUnits } from "./api/units-api.ts";
export { answerWait, Held, ScreenLoading, useAnswersFirst } from "./components/answers-first.tsx";
export { useAppTitle } from "./components/app-title.ts";
export { CertificateNotice } from "./components/certificate-notice.tsx";
export { useCan, useConsoleOperator } from "./components/console-shell.tsx";
export { type ConsoleColumn, DataTable } from "./components/data-table.tsx";
export { useEventLabel } from "./components/event-label.ts";
export { RevocationNotice } from "./components/revocation-notice.tsx";
export { Facts, ReadFailed, Section, SectionFailure } from "./components/sections.tsx";
export { useServiceWords } from "./components/service-words.ts";
export { StatusBadge } from "./components/status-badge.tsx";
export { UnitPicker, useUnitName } from "./components/unit-picker.tsx";
