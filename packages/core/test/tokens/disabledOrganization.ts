import type { DisabledOrganization } from "../protocol/DisabledOrganization.js"

export const disabledOrganization: DisabledOrganization = {
  noOrganizationData: {
    "auth.generate_token": "signs the claims it is given and reads nothing stored; a token naming a disabled organization grants nothing in it (the access rule's first step)",
    "auth.token.get.v1": "signs a token for the organization it is given, as generate_token does, and reads nothing stored of it",
    "client.session.get": "answers the token's own claims (the user and its expiry) and reads nothing stored"
  }
}
