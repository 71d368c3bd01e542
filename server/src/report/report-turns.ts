// Reports are made one at a time, and a report asked for again while it is being made (the same
// period and grouping from another owner tab, or the same tab's next poll) gets that answer instead
// of a second run. Each run is already cut into small turns (lead-report.ts); this keeps ten open
// tabs from running ten year-long reports side by side. Nothing is kept once a run has answered.
export function createReportTurns<T>() {
  const running = new Map<string, Promise<T>>();
  let last: Promise<unknown> = Promise.resolve();
  return function turn(key: string, make: () => Promise<T>): Promise<T> {
    const same = running.get(key);
    if (same) return same;
    const run = last.then(make);
    last = run.catch(() => {});
    running.set(key, run);
    const forget = () => {
      if (running.get(key) === run) running.delete(key);
    };
    run.then(forget, forget);
    return run;
  };
}
