/**
 * A lazily loaded module (a page, ECharts), loaded once: on first need, or earlier by anyone who
 * knows it will be needed. Once loaded it is read synchronously, so a component can render it at
 * once instead of suspending: a Suspense fallback stays on screen for at least 300 ms in React 19,
 * however fast the chunk arrives.
 */
export interface ModuleLoader<T> {
  /** The module's value once loaded; undefined before. */
  readonly loaded: T | undefined;
  /** Starts loading (once; again after a failure) and answers the value. */
  load(): Promise<T>;
}

export function moduleLoader<T>(importModule: () => Promise<T>): ModuleLoader<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    get loaded() {
      return loaded;
    },
    load() {
      loading ??= importModule().then(
        (value) => (loaded = value),
        (error: unknown) => {
          // A chunk that failed to arrive (network down, a new deployment) is fetched again when next needed.
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
}
