// How the owner view talks to the relay. The token arrives once in the address (?token=…): it is
// kept for this tab only (sessionStorage) and taken out of the address bar, history and any
// Referer at once, keeping the #lead=… a notification links to. The relay also set its session
// cookie with the page, so the token header is a second way in, never the only one: a tab opened
// later by a link has the cookie alone (HttpOnly: this script never sees it). Then the relay takes
// an action only on the browser's word that this page sent it (Sec-Fetch-Site, Origin), which
// every fetch below carries by itself; no other page of the owner's site can send that.
const TOKEN_KEY = 'dialback-owner-token';

export function takeTokenFromAddress(): void {
  const params = new URLSearchParams(location.search);
  if (!params.has('token')) return;
  sessionStorage.setItem(TOKEN_KEY, params.get('token') ?? '');
  history.replaceState(null, '', location.pathname + location.hash);
}

/** An answer the relay gave that is not a success, with its own words when it sent some. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  constructor(message: string, status: number, code: string | null) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function headers(): Record<string, string> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? { 'x-owner-token': token } : {};
}

async function call<T>(path: string, init: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers: headers(), cache: 'no-store', credentials: 'same-origin' });
  } catch {
    throw new ApiError('The relay is not answering: check the connection.', 0, null);
  }
  if (!res.ok) {
    // The body is always read: an unread one is a response the browser never finishes.
    const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    // Until the token is right every owner path is the unknown path's 404; a lead's own 404 is about the lead.
    if (res.status === 404 && !path.includes('/leads/')) throw new ApiError('This owner view needs its token: open /owner?token=… again.', 404, null);
    throw new ApiError(body?.error?.message ?? `The relay answered ${res.status}.`, res.status, body?.error?.code ?? null);
  }
  return (await res.json()) as T;
}

export const getJson = <T>(path: string) => call<T>(path, { method: 'GET' });
export const postJson = <T>(path: string) => call<T>(path, { method: 'POST' });
