-- wrk: POST the body and headers given in the environment.
wrk.method = "POST"
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["content-type"] = "application/json"
wrk.headers["x-service-api-key"] = os.getenv("BENCH_API_KEY")
wrk.headers["x-service-auth-token"] = os.getenv("BENCH_AUTH_TOKEN")
