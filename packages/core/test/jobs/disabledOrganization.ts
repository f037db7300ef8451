import type { DisabledOrganization } from "../protocol/DisabledOrganization.js"

export const disabledOrganization: DisabledOrganization = {
  noOrganizationData: {
    "users.data.delete.status": "a job's progress (whether done, tasks left, a time): no organization's data"
  },
  ruled: {
    "users.data.get": "the data subject's access: a user's data is exported from a disabled organization too, as it is deleted from one",
    "users.data.delete": "erasure: a user's data is deleted from disabled organizations too (the switch stops the data's use, not its removal); the answer is a job id and a count"
  }
}
