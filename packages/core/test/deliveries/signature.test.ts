import { describe, expect, it } from "vitest"
import { Webhook } from "standardwebhooks"
import { deliveryBody } from "../../src/deliveries/DeliveryBody.js"
import { delayMillis, parseRetrySchedule, retryAfterMillis } from "../../src/deliveries/RetrySchedule.js"
import { signatureEntry, signedHeaders } from "../../src/deliveries/Signature.js"

describe("signatures", () => {
  it("match the documented test vector", () => {
    expect(signatureEntry("whsec_plJ3nmyCDGBKInavdOK15jsl", "msg_loFOjxBNrRLzqYUf", 1731705121, '{"event_type":"ping","data":{"success":true}}'))
      .toBe("v1,rAvfW3dJ/X/qxhsaXPOyyCGmRKsaKWcsNccKXlIktD0=")
  })

  it("carry one entry per live secret, each accepted by standardwebhooks on its own", () => {
    const secrets = ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_plJ3nmyCDGBKInavdOK15jsl"]
    const body = deliveryBody({ messageId: "msg_1", eventType: "comment.add", payloadJson: '{"x":1}', messageCreatedAt: 5 })
    const timestamp = Math.floor(Date.now() / 1000)
    const headers = signedHeaders(secrets, "msg_1", timestamp, body)
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2)
    for (const secret of secrets) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body))
    expect(() => new Webhook("whsec_" + Buffer.from("another key of ours").toString("base64")).verify(body, headers)).toThrow()
  })

  it("body: source and actionType split at the first dot, the payload spliced in as data", () => {
    expect(JSON.parse(deliveryBody({ messageId: "m", eventType: "message.attempt.exhausted", payloadJson: '{"a":[1,"é"]}', messageCreatedAt: 7 }))).toEqual({
      webhookId: "m",
      event: "message.attempt.exhausted",
      source: "message",
      actionType: "attempt.exhausted",
      timestamp: 7,
      data: { a: [1, "é"] }
    })
  })
})

describe("the retry schedule setting", () => {
  it("reads comma-separated seconds and refuses anything else with a reason", () => {
    expect(parseRetrySchedule("0, 5,300")).toEqual([0, 5, 300])
    expect(parseRetrySchedule("0.5")).toEqual([0.5])
    for (const bad of ["", "0,,5", "a,b", "-1", "5,Infinity"]) expect(typeof parseRetrySchedule(bad)).toBe("string")
  })

  it("adds up to 10 % jitter, never less than the delay", () => {
    expect(delayMillis([0, 5], 1, 0)).toBe(5000)
    expect(delayMillis([0, 5], 1, 0.999)).toBeLessThanOrEqual(5500)
    expect(delayMillis([0, 5], 0, 0.9)).toBe(0)
  })

  it("reads Retry-After as seconds or an HTTP date, at most a day", () => {
    const now = Date.UTC(2026, 0, 1)
    expect(retryAfterMillis("120", now)).toBe(120_000)
    expect(retryAfterMillis(new Date(now + 60_000).toUTCString(), now)).toBe(60_000)
    expect(retryAfterMillis("99999999", now)).toBe(24 * 60 * 60 * 1000)
    expect(retryAfterMillis("soon", now)).toBeUndefined()
    expect(retryAfterMillis(undefined, now)).toBeUndefined()
  })
})
