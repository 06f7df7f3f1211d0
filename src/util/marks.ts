export const mark = (l: string) => {
  const m = (globalThis as { __marks?: Array<[string, number]> }).__marks;
  if (m) m.push([l, performance.now()]);
};
