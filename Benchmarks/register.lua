-- wrk script for Benchmarks/server.sh and Benchmarks/intake.sh: each request registers a new Live Activity with
-- POST /v1/activities (a new activity id and a new 64-hex-digit push token every time).
--
-- Environment:
--   LIVEPUSH_APP_KEY  the app key (Authorization: Bearer …)
--   BENCH_RUN         8 hex digits that make ids and tokens unique to this wrk run
--   BENCH_GROUP       the group every activity joins (default "bench")
--   BENCH_TIERS       optional "NAME:COUNT,NAME:COUNT": the activity numbered i (from 0) also joins
--                     NAME when i < COUNT (so one seeding fills the groups of 1k, 10k and 100k)
--   BENCH_LIMIT       optional: this many registrations per thread, then the thread stops (seeding);
--                     without it wrk runs for its -d duration (the requests/s measurement)
--   BENCH_DONE_FILE   with BENCH_LIMIT: created when the thread has all its answers (then send wrk
--                     SIGINT: it otherwise waits for the end of its -d duration)
-- Seeding needs -t 1 so that activity numbers are 0 … LIMIT-1.

local threads = {}

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  run = os.getenv("BENCH_RUN") or "00000000"
  group = os.getenv("BENCH_GROUP") or "bench"
  limit = tonumber(os.getenv("BENCH_LIMIT") or "0")
  tiers = {}
  for name, count in string.gmatch(os.getenv("BENCH_TIERS") or "", "([^:,]+):(%d+)") do
    table.insert(tiers, { name = name, count = tonumber(count) })
  end
  headers = {
    ["Authorization"] = "Bearer " .. (os.getenv("LIVEPUSH_APP_KEY") or ""),
    ["Content-Type"] = "application/json",
  }
  sent, created, failed = 0, 0, 0
  -- wrk 4 calls request() once on the first thread's state to check it, without sending it.
  probe = tid == 1
end

function request()
  if probe or (limit > 0 and sent >= limit) then
    probe = false
    -- Enough registrations are on their way: fill the connections with a cheap request until they answer.
    return wrk.format("GET", "/health")
  end
  local n = sent
  sent = sent + 1
  local groups = '"' .. group .. '"'
  for _, tier in ipairs(tiers) do
    if n < tier.count then groups = groups .. ',"' .. tier.name .. '"' end
  end
  local token = run .. string.format("%08x", tid) .. string.rep("0", 40) .. string.format("%08x", n)
  local body = '{"activityId":"bench-' .. run .. "-" .. tid .. "-" .. n .. '","pushToken":"' .. token
    .. '","bundleId":"com.example.apple-samplecode.Emoji-Rangers","attributesType":"AdventureAttributes"'
    .. ',"environment":"sandbox","groups":[' .. groups .. "]}"
  return wrk.format("POST", "/v1/activities", headers, body)
end

function response(status, headers, body)
  if status == 201 then
    created = created + 1
  elseif status ~= 200 then
    failed = failed + 1
    if failed <= 3 then io.stderr:write("registration failed: " .. status .. " " .. body .. "\n") end
  end
  if limit > 0 and created + failed == limit then
    -- wrk itself runs until its -d duration ends or it gets SIGINT: tell the caller, who sends it.
    local marker = os.getenv("BENCH_DONE_FILE")
    if marker then io.open(marker, "w"):close() end
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local created, failed = 0, 0
  for _, thread in ipairs(threads) do
    created = created + (thread:get("created") or 0)
    failed = failed + (thread:get("failed") or 0)
  end
  io.write(string.format("registrations: %d created (201), %d failed\n", created, failed))
end
