import type { Adapter, AdapterPayload } from "oidc-provider";

interface Entry {
  payload: AdapterPayload;
  expiresAt?: number;
}

/**
 * The stand-in's storage: one process, nothing kept across restarts, as a
 * sandbox wants. (oidc-provider's built-in one is the same but warns loudly.)
 */
export class MemoryAdapter implements Adapter {
  static readonly #entries = new Map<string, Entry>();
  readonly #model: string;

  constructor(model: string) {
    this.#model = model;
  }

  #key(id: string): string {
    return `${this.#model}:${id}`;
  }

  #live(key: string): AdapterPayload | undefined {
    const entry = MemoryAdapter.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      MemoryAdapter.#entries.delete(key);
      return undefined;
    }
    return entry.payload;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : undefined;
    MemoryAdapter.#entries.set(this.#key(id), { payload, expiresAt });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.#live(this.#key(id));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.#findBy((payload) => payload.userCode === userCode);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.#findBy((payload) => payload.uid === uid);
  }

  async consume(id: string): Promise<void> {
    const payload = this.#live(this.#key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    MemoryAdapter.#entries.delete(this.#key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [key, entry] of MemoryAdapter.#entries) {
      if (entry.payload.grantId === grantId) MemoryAdapter.#entries.delete(key);
    }
  }

  #findBy(matches: (payload: AdapterPayload) => boolean): AdapterPayload | undefined {
    const prefix = `${this.#model}:`;
    for (const key of MemoryAdapter.#entries.keys()) {
      if (!key.startsWith(prefix)) continue;
      const payload = this.#live(key);
      if (payload && matches(payload)) return payload;
    }
    return undefined;
  }
}
