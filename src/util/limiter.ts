/** Bounds how many async tasks run at once; the rest wait in FIFO order. */
export type Limiter = {
  run<T>(fn: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly pending: number;
};

export function createLimiter(max: number): Limiter {
  let active = 0;
  const queue: Array<() => void> = [];
  const next = () => {
    if (active >= max) return;
    const start = queue.shift();
    if (start) {
      active++;
      start();
    }
  };
  return {
    get active() {
      return active;
    },
    get pending() {
      return queue.length;
    },
    run<T>(fn: () => Promise<T>) {
      return new Promise<T>((resolve, reject) => {
        queue.push(() => {
          fn()
            .then(resolve, reject)
            .finally(() => {
              active--;
              next();
            });
        });
        next();
      });
    },
  };
}
