import { describe, expect, it } from "vitest"
import { entriesAdmitting, normalizeDomain, normalizeDomains } from "../../src/workspace/Domains.js"
import { continueUrlCheck, DISPOSABLE_EMAIL_DOMAINS, isDisposableEmail } from "../../src/workspace/EmailRules.js"

describe("isDisposableEmail", () => {
  it("has a built-in list of well-known domains", () => {
    expect(DISPOSABLE_EMAIL_DOMAINS.length).toBeGreaterThanOrEqual(55)
    for (const d of ["mailinator.com", "guerrillamail.com", "10minutemail.com", "tempmail.com", "yopmail.com", "trashmail.com",
      "sharklasers.com", "getnada.com", "temp-mail.org", "dispostable.com", "maildrop.cc"]) {
      expect(isDisposableEmail(`someone@${d}`)).toBe(true)
    }
  })

  it("matches subdomains and is case-insensitive", () => {
    expect(isDisposableEmail("x@sub.mailinator.com")).toBe(true)
    expect(isDisposableEmail("x@a.b.yopmail.com")).toBe(true)
    expect(isDisposableEmail("X@MailInator.COM")).toBe(true)
    expect(isDisposableEmail(" x@mailinator.com. ")).toBe(true)
  })

  it("does not match real domains or look-alikes", () => {
    expect(isDisposableEmail("ada@example.com")).toBe(false)
    expect(isDisposableEmail("ada@gmail.com")).toBe(false)
    expect(isDisposableEmail("ada@notmailinator.com")).toBe(false)
    expect(isDisposableEmail("ada@mailinator.com.example.org")).toBe(false)
    expect(isDisposableEmail("mailinator.com@example.com")).toBe(false)
    expect(isDisposableEmail("")).toBe(false)
  })

  it("accepts extra domains", () => {
    expect(isDisposableEmail("a@spam.example", ["Spam.Example"])).toBe(true)
    expect(isDisposableEmail("a@x.spam.example", ["@spam.example"])).toBe(true)
    expect(isDisposableEmail("a@ham.example", ["spam.example"])).toBe(false)
  })
})

describe("continueUrlCheck", () => {
  it("rejects what is not an http(s) URL", () => {
    expect(continueUrlCheck("not a url", "console.example.com")).toBe("invalid-url")
    expect(continueUrlCheck("/relative/path", "console.example.com")).toBe("invalid-url")
    expect(continueUrlCheck("ftp://console.example.com/x", "console.example.com")).toBe("invalid-url")
    expect(continueUrlCheck("javascript:alert(1)", "console.example.com")).toBe("invalid-url")
  })

  it("accepts the console domain, case-insensitively", () => {
    expect(continueUrlCheck("https://console.example.com/after?x=1", "console.example.com")).toBe("ok")
    expect(continueUrlCheck("https://CONSOLE.Example.com/", "Console.Example.COM")).toBe("ok")
    expect(continueUrlCheck("http://console.example.com:8443/", "console.example.com")).toBe("ok")
    expect(continueUrlCheck("https://console.example.com/", "https://console.example.com/")).toBe("ok")
  })

  it("rejects other domains, including look-alikes", () => {
    expect(continueUrlCheck("https://evil.com/", "console.example.com")).toBe("domain-not-allowed")
    expect(continueUrlCheck("https://console.example.com.evil.com/", "console.example.com")).toBe("domain-not-allowed")
    expect(continueUrlCheck("https://console.example.com@evil.com/", "console.example.com")).toBe("domain-not-allowed")
    expect(continueUrlCheck("https://sub.console.example.com/", "console.example.com")).toBe("domain-not-allowed")
    expect(continueUrlCheck("https://console.example.com/", undefined)).toBe("domain-not-allowed")
  })

  it("accepts localhost with any port, but not other loopback spellings", () => {
    expect(continueUrlCheck("http://localhost:3000/welcome", "console.example.com")).toBe("ok")
    expect(continueUrlCheck("http://LOCALHOST/", undefined)).toBe("ok")
    expect(continueUrlCheck("http://127.0.0.1:3000/", "console.example.com")).toBe("domain-not-allowed")
    expect(continueUrlCheck("http://[::1]:3000/", "console.example.com")).toBe("domain-not-allowed")
    expect(continueUrlCheck("http://localhost.evil.com/", "console.example.com")).toBe("domain-not-allowed")
  })
})

describe("normalizeDomain", () => {
  it.each([
    ["https://www.google.com", "google.com"],
    ["https://*.firebase.com", "*.firebase.com"],
    ["localhost:3000", "localhost:3000"],
    ["http://localhost:3000/app", "localhost:3000"],
    ["localhost", "localhost"],
    ["Example.COM", "example.com"],
    ["https://example.com/some/path?q=1#x", "example.com"],
    ["example.com/", "example.com"],
    ["www.example.co.uk", "example.co.uk"],
    ["www.com", "www.com"],
    ["sub.www.example.com", "sub.www.example.com"],
    ["  app.example.com:8080  ", "app.example.com:8080"],
    ["example.com.", "example.com"],
    ["192.168.1.10", "192.168.1.10"],
    ["http://10.0.0.1:8080/", "10.0.0.1:8080"],
    ["münchen.de", "xn--mnchen-3ya.de"],
    ["my-app.example.com", "my-app.example.com"]
  ])("%s → %s", (entry, expected) => {
    expect(normalizeDomain(entry)).toBe(expected)
  })

  it.each([
    "",
    "   ",
    "https://",
    "not a domain",
    "foo",
    "*",
    "*.com",
    "foo.*.com",
    "*.*.example.com",
    "example.*",
    "-bad.example.com",
    "bad-.example.com",
    "under_score.example.com",
    "user@example.com",
    "example.com:0",
    "example.com:99999",
    "example.com:abc",
    "256.1.1.1",
    "1.2.3",
    "*.1.2.3.4",
    "[::1]",
    "a..b.com",
    `${"a".repeat(64)}.com`
  ])("rejects %j", (entry) => {
    expect(normalizeDomain(entry)).toBeUndefined()
  })

  it("normalizeDomains dedupes valid entries in order and reports invalid ones as given", () => {
    expect(
      normalizeDomains(["https://www.google.com", "bad entry", "google.com", "*.firebase.com", "GOOGLE.com/", "foo", "localhost:3000"])
    ).toEqual({
      valid: ["google.com", "*.firebase.com", "localhost:3000"],
      invalid: ["bad entry", "foo"]
    })
    expect(normalizeDomains([])).toEqual({ valid: [], invalid: [] })
  })
})

describe("entriesAdmitting (the stored entries that admit a browser's origin)", () => {
  it.each([
    ["https://example.com", ["example.com", "example.com:443"]],
    ["http://example.com:3000", ["example.com", "example.com:3000"]],
    // www. is the site (as stored) and a subdomain of it (for wildcards).
    ["https://www.example.com", ["example.com", "example.com:443", "*.example.com", "*.example.com:443"]],
    ["https://a.b.example.co.uk", [
      "a.b.example.co.uk", "a.b.example.co.uk:443",
      "*.b.example.co.uk", "*.b.example.co.uk:443", "*.example.co.uk", "*.example.co.uk:443", "*.co.uk", "*.co.uk:443"
    ]],
    ["http://10.0.0.5:8080", ["10.0.0.5", "10.0.0.5:8080"]],
    ["https://xn--mnchen-3ya.de", ["xn--mnchen-3ya.de", "xn--mnchen-3ya.de:443"]]
  ])("%s → %j", (origin, entries) => {
    expect(entriesAdmitting(origin)).toEqual(entries)
  })

  it.each(["null", "file://", "ftp://example.com", "https://example.com/", "https://example.com/path", "https://user@example.com", "example.com", "https://*.example.com", "https://[::1]:3000", "https://exa mple.com"])(
    "admits nothing at %j",
    (origin) => expect(entriesAdmitting(origin)).toBeUndefined()
  )
})
