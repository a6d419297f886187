import { UAParser } from "ua-parser-js";

export interface Device {
  /** "Firefox 128"; empty when the user agent does not say. */
  browser: string;
  /** "Android 14"; empty when the user agent does not say. */
  system: string;
}

const joined = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(" ");

/** The browser and operating system a user agent names, for people to recognise their devices. */
export function describeDevice(userAgent: string | null): Device {
  if (!userAgent) return { browser: "", system: "" };
  const parsed = new UAParser(userAgent).getResult();
  return {
    browser: joined(parsed.browser.name, parsed.browser.version?.split(".")[0]),
    system: joined(parsed.os.name, parsed.os.version),
  };
}
