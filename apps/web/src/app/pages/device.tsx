import { DeviceScreen } from "@/features/device/components/device-screen.tsx";

/** /{lang}/device: signing in a bot, a terminal or a lecture-hall screen with the code it shows. */
export function DeviceRoute() {
  return <DeviceScreen />;
}
