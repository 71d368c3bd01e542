// The consent records' file (CONSENT_LOG_PATH) is appended to by every admitted request and, rarely,
// rewritten without one number's records (an erasure, erase-from-file.ts). A rewrite reads the file,
// writes a new one and renames it over the old: a record appended between the read and the rename
// would be lost. So appends go on side by side (each is one O_APPEND write), a rewrite waits for
// the appends under way and the appends that come meanwhile wait for it. One process, one gate per
// path: each relay has its own file.
interface Gate {
  appending: Set<Promise<unknown>>;
  rewriting: Promise<unknown> | null;
}

const gates = new Map<string, Gate>();

function gateOf(path: string): Gate {
  let gate = gates.get(path);
  if (!gate) gates.set(path, (gate = { appending: new Set(), rewriting: null }));
  return gate;
}

/** Runs an append to `path` once no rewrite of it is under way. */
export async function appendingTo<T>(path: string, append: () => Promise<T>): Promise<T> {
  const gate = gateOf(path);
  while (gate.rewriting) await gate.rewriting.catch(() => {});
  const running = append();
  gate.appending.add(running);
  try {
    return await running;
  } finally {
    gate.appending.delete(running);
  }
}

/** Runs a rewrite of `path` alone: after the appends under way, before the ones that come meanwhile. */
export async function rewriting<T>(path: string, rewrite: () => Promise<T>): Promise<T> {
  const gate = gateOf(path);
  while (gate.rewriting) await gate.rewriting.catch(() => {});
  const under = [...gate.appending];
  const running = (async () => {
    await Promise.allSettled(under);
    return rewrite();
  })();
  gate.rewriting = running;
  try {
    return await running;
  } finally {
    if (gate.rewriting === running) gate.rewriting = null;
  }
}
