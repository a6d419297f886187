/** A bad setting: the message is one line naming the variable and what is wrong. */
export class ConfigError extends Error {
  override name = "ConfigError";
}
