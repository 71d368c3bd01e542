// The Lua behind the Redis limit store, one `.lua` file per script beside this one (each opens with
// its KEYS, ARGV and what it returns). Every call of the limiter is one script, so every check and
// every update of one request happen atomically, whichever relay runs it; the arithmetic of a
// record (record.lua) and the blocked subjects' bookkeeping (blocks.lua) are written once and
// included. Every key is under the deployment's "limits" hash tag: one Cluster slot.
import { luaFile } from '../../storage/redis/lua-file.ts';
import type { HeldStrikes } from './strike-buffer.ts';

const script = (name: string) => luaFile(new URL(`./${name}.lua`, import.meta.url));

export const PEEK_EACH = script('peek-each');
export const CONSUME_EACH = script('consume-each');
export const STRIKE_EACH = script('strike-each');
export const REFUND = script('refund');
export const ACQUIRE = script('acquire');
export const RELEASE = script('release');
export const BLOCKS_SINCE = script('blocks-since');

/** STRIKE_EACH's arguments: the specs once, then each record's spec index and strikes. */
export function strikeArgs(records: HeldStrikes[]): string[] {
  const specs = new Map<string, number>();
  const tail: string[] = [];
  for (const r of records) {
    let index = specs.get(r.spec);
    if (index === undefined) {
      index = specs.size + 1;
      specs.set(r.spec, index);
    }
    tail.push(String(index), r.pending);
  }
  return [String(specs.size), ...specs.keys(), ...tail];
}
