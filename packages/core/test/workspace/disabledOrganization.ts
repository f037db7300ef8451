import type { DisabledOrganization } from "../protocol/DisabledOrganization.js"

const keys = "the workspace's API keys and their tokens: no organization's data"

export const disabledOrganization: DisabledOrganization = {
  noOrganizationData: {
    "workspace.create": "creates a workspace and its first API key: no organization exists yet",
    "workspace.get": "the workspace's own record and its keys",
    "workspace.apikey.create": keys,
    "workspace.apikeys.get": keys,
    "workspace.apikey.update": keys,
    "workspace.authtokens.get": keys,
    "workspace.authtoken.reset": keys,
    "workspace.domains.add": "the workspace's allowed email domains, a workspace setting",
    "workspace.domains.get": "the workspace's allowed email domains, a workspace setting",
    "workspace.domains.delete": "the workspace's allowed email domains, a workspace setting",
    "workspace.permissionproviderconfig.get": "the key's permission provider setting",
    "workspace.permissionproviderconfig.update": "the key's permission provider setting",
    "workspace.apikeyconfig.get": "the key's default document access type, a key setting",
    "workspace.apikeyconfig.update": "the key's default document access type, a key setting",
    "workspace.notificationconfig.get": "the key's notification setting",
    "workspace.notificationconfig.update": "the key's notification setting",
    "workspace.activityconfig.get": "the key's activity log setting",
    "workspace.activityconfig.update": "the key's activity log setting",
    "workspace.emailconfig.get": "the key's email setting",
    "workspace.emailconfig.update": "the key's email setting",
    "workspace.email.status": "whether an email owns a workspace: no organization's data",
    "workspace.email.sendloginlink": "mails the workspace's owner a login link"
  }
}
