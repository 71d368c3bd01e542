// The job store's Lua scripts (redis-job-store.ts), one file each in redis-jobs/: each step is one
// script, so a claim, a step or a cancel is atomic across relays. Every script includes jobs.lua
// (its keys, all in the group "jobs": one hash tag, one Cluster slot); the claim is the outbox's
// leased claim (storage/redis/leased-claim.lua).
import { luaFile } from '../../storage/redis/lua-file.ts';

const script = (name: string) => luaFile(new URL(`./redis-jobs/${name}.lua`, import.meta.url));

export const ADD = script('add');
export const CLAIM = script('claim');
export const RENEW = script('renew');
export const FINISH = script('finish');
export const WAIT = script('wait');
export const CANCEL = script('cancel');
export const MIGRATE = script('migrate');
