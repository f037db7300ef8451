import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  // The queue itself has no operation; what a key sets of its email is its email settings (workspace/emailconfig).
  seed: async ({ call, mark }) => {
    await call("/v2/workspace/emailconfig/update", {
      emailServiceConfig: { fromCompany: `${mark} Co`, fromEmail: "a@a.example", linkTemplate: `https://a.example/${encodeURIComponent(mark)}/{documentId}` }
    })
    return {}
  },
  reads: () => [["/v2/workspace/emailconfig/get", {}]]
}
