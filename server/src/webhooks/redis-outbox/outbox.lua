-- What every outbox script shares: the keyspace in ARGV[1] (the group "outbox", one hash tag, one
-- Cluster slot), the entry's due set in KEYS[1], and whether an owner holds an entry.
local space = ARGV[1]
local due = KEYS[1]
local function evKey(id) return space .. 'ev:' .. id end
local function held(k, owner) return redis.call('HGET', k, 'state') == 'pending' and redis.call('HGET', k, 'owner') == owner end
