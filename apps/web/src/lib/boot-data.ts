import { type BootData, bootDataElementId } from "@kpi-id/contracts";

let read: Partial<BootData> | undefined;

/**
 * What the server wrote into the page (settings, the first screen's translations). Empty when the page
 * came without it (the Vite dev server, a test), and then the app asks for both over the network.
 */
export function bootData(): Partial<BootData> {
  if (read) return read;
  try {
    const text = document.getElementById(bootDataElementId)?.textContent;
    read = text ? (JSON.parse(text) as Partial<BootData>) : {};
  } catch {
    read = {}; // a damaged element: the same as none
  }
  return read;
}
