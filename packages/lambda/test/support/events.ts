/**
 * Lambda events built like the ones AWS sends, after the sample events in the AWS docs
 * (`sam local generate-event apigateway aws-proxy | http-api-proxy`, and the ALB guide):
 * the same fields, the same header casing, the headers API Gateway and the ALB add.
 */
import type { ALBEvent, ALBResult, APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult, APIGatewayProxyStructuredResultV2 } from "aws-lambda"

export interface HttpRequest {
  readonly method: string
  /** May carry a query string. */
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | Uint8Array | undefined
}

export interface HttpAnswer {
  readonly status: number
  /** Names lower-cased, repeated values joined. */
  readonly headers: Record<string, string>
  readonly body: string
}

export interface EventOptions {
  /** Send the body base64-encoded (bytes always are). */
  readonly base64?: boolean
  /** v1/v2: `requestContext.stage`; for an HTTP API it is also put in front of the path, as AWS does. */
  readonly stage?: string
  /** v1: an HTTP API's payload 1.0 (`version: "1.0"`, stage in the path) rather than a REST API's. */
  readonly httpApi?: boolean
  /** ALB: the target group has multi-value headers on. */
  readonly multiValue?: boolean
  readonly sourceIp?: string
}

const split = (path: string) => {
  const at = path.indexOf("?")
  return at === -1 ? { pathname: path, query: "" } : { pathname: path.slice(0, at), query: path.slice(at + 1) }
}

const queryParameters = (query: string): Record<string, string> | null => {
  if (query === "") return null
  return Object.fromEntries(new URLSearchParams(query))
}

const encodeBody = (body: string | Uint8Array | undefined, base64: boolean | undefined) => {
  if (body === undefined) return { body: null, isBase64Encoded: false }
  if (typeof body !== "string") return { body: Buffer.from(body).toString("base64"), isBase64Encoded: true }
  return base64 === true ? { body: Buffer.from(body).toString("base64"), isBase64Encoded: true } : { body, isBase64Encoded: false }
}

/** `x-service-api-key` → `X-Service-Api-Key`: REST APIs pass the casing clients send, often this one. */
const titleCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase())

const withStage = (pathname: string, stage: string) => (stage === "$default" ? pathname : `/${stage}${pathname}`)

/** API Gateway REST API (payload v1), or an HTTP API on payload 1.0 with `httpApi`. */
export const v1Event = (request: HttpRequest, options: EventOptions = {}): APIGatewayProxyEvent => {
  const { pathname, query } = split(request.path)
  const stage = options.stage ?? (options.httpApi ? "$default" : "prod")
  const sourceIp = options.sourceIp ?? "198.51.100.7"
  const headers: Record<string, string> = {
    Accept: "*/*",
    "CloudFront-Forwarded-Proto": "https",
    "CloudFront-Viewer-Country": "US",
    Host: "1234567890.execute-api.us-east-1.amazonaws.com",
    "User-Agent": "Custom User Agent String",
    Via: "1.1 08f323deadbeefa7af34d5feb414ce27.cloudfront.net (CloudFront)",
    "X-Amz-Cf-Id": "cDehVQoZnx43VYQb9j2-nvCh-9z396Uhbp027Y2JvkCPNLmGJHqlaA==",
    "X-Amzn-Trace-Id": "Root=1-5e66d96f-7491f09xmpl79d18acf3d050",
    "X-Forwarded-For": `${sourceIp}, 130.176.0.1`,
    "X-Forwarded-Port": "443",
    "X-Forwarded-Proto": "https"
  }
  for (const [name, value] of Object.entries(request.headers)) headers[titleCase(name)] = value
  const multiValueHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]]))
  const path = options.httpApi ? withStage(pathname, stage) : pathname
  const parameters = queryParameters(query)
  return {
    ...(options.httpApi && { version: "1.0" }),
    resource: "/{proxy+}",
    path,
    httpMethod: request.method,
    headers,
    multiValueHeaders,
    queryStringParameters: parameters,
    multiValueQueryStringParameters: parameters && Object.fromEntries(Object.entries(parameters).map(([k, v]) => [k, [v]])),
    pathParameters: { proxy: pathname.slice(1) },
    stageVariables: null,
    requestContext: {
      accountId: "123456789012",
      apiId: "1234567890",
      authorizer: {},
      domainName: "1234567890.execute-api.us-east-1.amazonaws.com",
      domainPrefix: "1234567890",
      extendedRequestId: "BQGojGkyoAMFdKw=",
      httpMethod: request.method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp,
        user: null,
        userAgent: "Custom User Agent String",
        userArn: null
      },
      // REST APIs keep the stage out of `path` but put it in `requestContext.path`.
      path: options.httpApi ? path : `/${stage}${pathname}`,
      protocol: "HTTP/1.1",
      requestId: "c6af9ac6-7b61-11e6-9a41-93e8deadbeef",
      requestTime: "09/Apr/2015:12:34:56 +0000",
      requestTimeEpoch: 1428582896000,
      resourceId: "123456",
      resourcePath: "/{proxy+}",
      stage
    },
    ...encodeBody(request.body, options.base64)
  }
}

/** HTTP API or Function URL (payload v2): lower-case headers, cookies apart, the stage in `rawPath`. */
export const v2Event = (request: HttpRequest, options: EventOptions = {}): APIGatewayProxyEventV2 => {
  const { pathname, query } = split(request.path)
  const stage = options.stage ?? "$default"
  const sourceIp = options.sourceIp ?? "198.51.100.7"
  const headers: Record<string, string> = {
    accept: "*/*",
    "content-length": String(request.body === undefined ? 0 : Buffer.byteLength(request.body)),
    host: "r3pmxmplak.execute-api.us-east-2.amazonaws.com",
    "user-agent": "curl/7.68.0",
    "x-amzn-trace-id": "Root=1-5e6722a7-cc56xmpl46db7ae02d4da47e",
    "x-forwarded-for": sourceIp,
    "x-forwarded-port": "443",
    "x-forwarded-proto": "https"
  }
  let cookies: Array<string> | undefined
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === "cookie") cookies = value.split(/;\s*/)
    else headers[name.toLowerCase()] = value
  }
  const rawPath = withStage(pathname, stage)
  const parameters = queryParameters(query)
  const body = encodeBody(request.body, options.base64)
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath,
    rawQueryString: query,
    ...(cookies && { cookies }),
    headers,
    ...(parameters && { queryStringParameters: parameters }),
    requestContext: {
      accountId: "123456789012",
      apiId: "r3pmxmplak",
      domainName: "r3pmxmplak.execute-api.us-east-2.amazonaws.com",
      domainPrefix: "r3pmxmplak",
      http: { method: request.method, path: rawPath, protocol: "HTTP/1.1", sourceIp, userAgent: "curl/7.68.0" },
      requestId: "JKJaXmPLvHcESHA=",
      routeKey: "$default",
      stage,
      time: "10/Mar/2020:05:16:23 +0000",
      timeEpoch: 1583817383220
    },
    ...(body.body !== null && { body: body.body }),
    isBase64Encoded: body.isBase64Encoded
  }
}

/** Application Load Balancer, with `headers` or (target group setting) `multiValueHeaders`. */
export const albEvent = (request: HttpRequest, options: EventOptions = {}): ALBEvent => {
  const { pathname, query } = split(request.path)
  const headers: Record<string, string> = {
    accept: "*/*",
    connection: "keep-alive",
    host: "lambda-alb-123578498.us-east-2.elb.amazonaws.com",
    "user-agent": "curl/7.68.0",
    "x-amzn-trace-id": "Root=1-5c536348-3d683b8b04734faae651f476",
    "x-forwarded-for": options.sourceIp ?? "198.51.100.7",
    "x-forwarded-port": "80",
    "x-forwarded-proto": "http"
  }
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value
  const parameters = queryParameters(query) ?? {}
  const body = encodeBody(request.body, options.base64)
  return {
    requestContext: { elb: { targetGroupArn: "arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/lambda-279XGJDqGZ5rsrHC2Fjr/49e9d65c45c6791a" } },
    httpMethod: request.method,
    path: pathname,
    ...(options.multiValue
      ? {
        multiValueQueryStringParameters: Object.fromEntries(Object.entries(parameters).map(([k, v]) => [k, [v]])),
        multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]]))
      }
      : { queryStringParameters: parameters, headers }),
    // The ALB sends an empty string, not null, when there is no body.
    body: body.body ?? "",
    isBase64Encoded: body.isBase64Encoded
  }
}

export type AnyResult = APIGatewayProxyResult | APIGatewayProxyStructuredResultV2 | ALBResult

/** What a client would read from the result: lower-cased header names, multi-values joined. */
export const answerOf = (result: AnyResult): HttpAnswer => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = String(value)
  const multi = (result as APIGatewayProxyResult).multiValueHeaders ?? {}
  for (const [name, values] of Object.entries(multi)) headers[name.toLowerCase()] = values.map(String).join(", ")
  const body = result.body ?? ""
  return { status: result.statusCode ?? 200, headers, body: result.isBase64Encoded ? Buffer.from(body, "base64").toString("utf8") : body }
}
