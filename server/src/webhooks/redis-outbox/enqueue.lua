-- Adds an entry, pending and due at once, unless its event id is known.
-- KEYS: 1 the channel's due set
-- ARGV: 1 keyspace, 2 eventId, 3 now, 4… the entry's fields (name, value pairs)
-- Returns: 1 when added, 0 when the event id is taken
--#include outbox.lua
local k = evKey(ARGV[2])
if redis.call('EXISTS', k) == 1 then return 0 end
local fields = {}
for i = 4, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', k, unpack(fields))
redis.call('ZADD', due, tonumber(ARGV[3]), ARGV[2])
return 1
