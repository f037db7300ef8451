-- wrk: POST a mix of requests in turn: BENCH_REQUESTS holds one per line, "<path> <body>"; "%N%"
-- in a body becomes a number new to each request, so writes add rows instead of overwriting one
-- (with BENCH_ROTATE, a number from 0 to BENCH_ROTATE - 1 in turn: writes spread over that many rows).
local requests = {}
for line in string.gmatch(os.getenv("BENCH_REQUESTS"), "[^\n]+") do
  local path, body = string.match(line, "^(%S+) (.+)$")
  requests[#requests + 1] = { path = path, body = body }
end
local rotate = tonumber(os.getenv("BENCH_ROTATE") or "")
local n = 0
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
-- A user's token (the client API, which refuses the API key's headers), or the API key's.
if os.getenv("BENCH_BEARER") then
  wrk.headers["authorization"] = "Bearer " .. os.getenv("BENCH_BEARER")
else
  wrk.headers["x-service-api-key"] = os.getenv("BENCH_API_KEY")
  wrk.headers["x-service-auth-token"] = os.getenv("BENCH_AUTH_TOKEN")
end

request = function()
  n = n + 1
  local r = requests[(n % #requests) + 1]
  local body = string.gsub(r.body, "%%N%%", tostring(rotate and n % rotate or n))
  return wrk.format(nil, r.path, nil, body)
end

-- Counts answers by status, so a bench run says what failed.
local statuses = {}
response = function(status)
  statuses[status] = (statuses[status] or 0) + 1
end
done = function()
  for status, count in pairs(statuses) do io.write(string.format("status %d: %d\n", status, count)) end
end
