import type { DisabledOrganization } from "../protocol/DisabledOrganization.js"

export const disabledOrganization: DisabledOrganization = {
  ruled: {
    "organizations.access.disablestate.update": "the switch itself: it must reach a disabled organization to enable it again",
    "organizations.add": "the organization's own record (name, metadata), not data stored inside it: a host may rename a disabled organization",
    "organizations.update": "the organization's own record, as organizations.add: a host may rename a disabled organization",
    "organizations.delete": "deletes the organization itself, whatever its flag: a host may delete a disabled organization (and its deletion takes the flag with it)",
    "organizations.get": "the organizations' own records, a disabled one with `disabled: true`, so the host sees what is switched off and can switch it on; nothing stored inside the organization is answered"
  }
}
