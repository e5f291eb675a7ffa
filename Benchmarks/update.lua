-- wrk script for Benchmarks/intake.sh: each request updates one Live Activity picked at random among those
-- Benchmarks/register.lua seeded (`-t1`, BENCH_LIMIT=N: ids bench-RUN-1-0 … bench-RUN-1-(N-1)), with
-- POST /v1/activities/{id}/update and a content-state of its own (a new eventDescription each time).
--
-- Environment:
--   LIVEPUSH_BACKEND_KEY  the backend key (Authorization: Bearer …)
--   BENCH_RUN             the 8 hex digits of the seeding run
--   BENCH_ACTIVITIES      how many were seeded
-- At the end it prints the 202s, the push ids they carried, the earlier pushes they replaced
-- (coalesced: never sent) and the other answers, summed over the threads.

local threads = {}

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  run = os.getenv("BENCH_RUN") or "00000000"
  activities = tonumber(os.getenv("BENCH_ACTIVITIES") or "1")
  headers = {
    ["Authorization"] = "Bearer " .. (os.getenv("LIVEPUSH_BACKEND_KEY") or ""),
    ["Content-Type"] = "application/json",
  }
  math.randomseed(os.time() * 100 + tid)
  sent, accepted, pushes, replaced, failed = 0, 0, 0, 0, 0
end

function request()
  sent = sent + 1
  local id = "bench-" .. run .. "-1-" .. math.random(0, activities - 1)
  local body = '{"contentState":{"currentHealthLevel":' .. string.format("%.3f", math.random())
    .. ',"eventDescription":"update ' .. tid .. "-" .. sent .. '"}}'
  return wrk.format("POST", "/v1/activities/" .. id .. "/update", headers, body)
end

function response(status, headers, body)
  if status == 202 then
    accepted = accepted + 1
    local ids = string.match(body, '"pushIds":%[([^%]]*)%]') or ""
    for _ in string.gmatch(ids, '"[^"]+"') do pushes = pushes + 1 end
    for _ in string.gmatch(body, '"replaced":"') do replaced = replaced + 1 end
  else
    failed = failed + 1
    if failed <= 3 then io.stderr:write("update failed: " .. status .. " " .. body .. "\n") end
  end
end

function done(summary, latency, requests)
  local accepted, pushes, replaced, failed = 0, 0, 0, 0
  for _, thread in ipairs(threads) do
    accepted = accepted + (thread:get("accepted") or 0)
    pushes = pushes + (thread:get("pushes") or 0)
    replaced = replaced + (thread:get("replaced") or 0)
    failed = failed + (thread:get("failed") or 0)
  end
  io.write(string.format("updates: %d accepted (202) with %d push ids, %d earlier pushes replaced, %d failed\n",
    accepted, pushes, replaced, failed))
end
