-- wrk: POST the body and headers given in the environment.
wrk.method = "POST"
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["content-type"] = "application/json"
-- A user's token (the client API, which refuses the API key's headers), or the API key's.
if os.getenv("BENCH_BEARER") then
  wrk.headers["authorization"] = "Bearer " .. os.getenv("BENCH_BEARER")
else
  wrk.headers["x-service-api-key"] = os.getenv("BENCH_API_KEY")
  wrk.headers["x-service-auth-token"] = os.getenv("BENCH_AUTH_TOKEN")
end
