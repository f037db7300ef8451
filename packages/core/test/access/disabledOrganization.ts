import type { DisabledOrganization } from "../protocol/DisabledOrganization.js"

const perResource = "names an organization per resource: the service refuses the whole call while one of them is disabled (test/access/permissions.test.ts)"

export const disabledOrganization: DisabledOrganization = {
  noOrganizationData: {
    "auth.generate_signature": "signs the permissions it is given with the key's own secret and reads nothing stored"
  },
  ruled: {
    "auth.permissions.add": perResource,
    "auth.permissions.remove": perResource
  }
}
