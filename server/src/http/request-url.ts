// The request target as the router sees it. WHATWG URL parsing (percent-encoding, dot segments,
// backslashes, "//host" forms) is what decides a path, but building a URL object for every request
// costs more than routing it; most targets are plain paths that parsing leaves exactly as they are,
// and those skip it. The URL object is still made when a handler asks for it (query parameters).
const BASE = 'http://relay.invalid';

/** Characters URL keeps as they are in a path; no "?", "#", "%", "\" or whitespace. */
const plainTarget = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
/** "/." and "/.." segments, which URL parsing resolves. */
const dotSegment = /\/\.\.?(?:\/|$)/;

/** The path of a target that URL parsing would leave unchanged, or null when it must be parsed. */
export function plainPath(target: string): string | null {
  return plainTarget.test(target) && !dotSegment.test(target) ? target : null;
}

/** The target parsed as URL does it; a target it cannot parse counts as "/". */
export function parseTarget(target: string): URL {
  try {
    return new URL(target, BASE);
  } catch {
    return new URL(`${BASE}/`);
  }
}
