// The request target as the router sees it. WHATWG URL parsing (percent-encoding, dot segments,
// backslashes, "//host" forms) is what decides a path, but building a URL object for every request
// costs more than routing it; most targets are plain paths that parsing leaves exactly as they are,
// and those skip it. The URL object is still made when a handler asks for it (query parameters).
const BASE = 'http://relay.invalid';

/** Characters URL keeps as they are in a path; no "?", "#", "%", "\" or whitespace. */
const plainTarget = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
/** "/." and "/.." segments, which URL parsing resolves, and "//", which nginx merges. */
const unplainSegment = /\/\.\.?(?:\/|$)|\/\//;

/** The path of a target that URL parsing would leave unchanged, or null when it must be parsed. */
export function plainPath(target: string): string | null {
  return plainTarget.test(target) && !unplainSegment.test(target) ? target : null;
}

/**
 * Why a target is refused before routing, or null when its path means one thing to everyone. The
 * relay reads a path as WHATWG URL does (a backslash is a slash, dot segments are resolved, a
 * fragment is cut off), a proxy in front reads it otherwise (nginx keeps a backslash as a letter and
 * matches its locations on the decoded path): `/.\readyz` is not nginx's `location = /readyz`, yet it
 * was the relay's /readyz. So every target that the two could read apart is answered 400: one that
 * is not a path (nor a URL with one), a backslash or an encoded slash or backslash, a dot segment
 * (`.`, `..`, encoded or not), an empty segment, a fragment.
 */
export function ambiguousTarget(target: string): string | null {
  let path = target;
  if (!path.startsWith('/')) {
    const absolute = /^https?:\/\/[^/?#\\]*/i.exec(path);
    if (!absolute) return 'The request target must be a path starting with "/".';
    path = path.slice(absolute[0].length);
    if (!path.startsWith('/')) path = `/${path}`;
  }
  if (path.includes('#')) return 'The request target must not carry a fragment ("#").';
  const query = path.indexOf('?');
  if (query >= 0) path = path.slice(0, query);
  if (path.includes('\\') || /%(?:2f|5c)/i.test(path)) return 'The request path must not hold a backslash or an encoded slash.';
  if (path.includes('//')) return 'The request path must not hold an empty segment ("//").';
  for (const segment of path.split('/')) {
    const dots = segment.replace(/%2e/gi, '.');
    if (dots === '.' || dots === '..') return 'The request path must not hold "." or ".." segments.';
  }
  return null;
}

/** The target parsed as URL does it; a target it cannot parse counts as "/". */
export function parseTarget(target: string): URL {
  try {
    return new URL(target, BASE);
  } catch {
    return new URL(`${BASE}/`);
  }
}
