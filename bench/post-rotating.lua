-- wrk: POST the body given in the environment, with each "%THREAD%" in it replaced by a number
-- from 0 to BENCH_ROTATE - 1, a new one per request (writes spread over many rows).
local template = os.getenv("BENCH_BODY")
local count = tonumber(os.getenv("BENCH_ROTATE"))
local n = 0
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.headers["x-service-api-key"] = os.getenv("BENCH_API_KEY")
wrk.headers["x-service-auth-token"] = os.getenv("BENCH_AUTH_TOKEN")

request = function()
  n = n + 1
  local body = string.gsub(template, "%%THREAD%%", tostring(n % count))
  return wrk.format(nil, nil, nil, body)
end
