// The widget must never break its host page: internal errors are caught and logged once each,
// with a prefix the site owner can search for, instead of being thrown into the page.
const seen = new Set<string>();

export function report(error: unknown): void {
  const message = String(error); // "TypeError: …" for errors
  // Logged when adding it grew the set: the first time only.
  if (seen.size === seen.add(message).size) return;
  try {
    console.error('[dialback]', message);
  } catch {
    // A host page that replaced console with something broken is still not our problem to crash.
  }
}
