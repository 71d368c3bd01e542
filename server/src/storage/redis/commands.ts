// Small pieces of the Redis connection (connection.ts): Lua scripts named by their SHA1, the
// deadline every command runs under, and how a failure is classified for StoreUnavailableError.
import { createHash } from 'node:crypto';
import { ErrorReply } from 'redis';
import { StoreUnavailableError, type StoreUnavailableReason } from '../errors.ts';

export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

/** A Lua script with its SHA1, for EVALSHA (EVAL once when the server does not know it yet). */
export function lua(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/** Rejects with a 'timeout' StoreUnavailableError when `promise` has not settled in `ms`. */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError('redis', 'timeout')), ms);
  });
  // A late answer or failure of an abandoned command is dropped, never unhandled.
  promise.catch(() => {});
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

export function classify(err: unknown): StoreUnavailableReason {
  if (err instanceof StoreUnavailableError) return err.reason;
  if (err instanceof ErrorReply) return 'error';
  return 'disconnected';
}
