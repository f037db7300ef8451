/** @atrium/server: the ready-to-run Atrium server, for programs that start it themselves. */
export { createWorkspace, migrate } from "./Commands.js"
export { readEnv, type ServerEnv } from "./Env.js"
export { serve, type RunningServer } from "./Serve.js"
export { SmtpMailer, type SmtpSettings } from "./SmtpMailer.js"
export { storageFromUrl } from "./Storage.js"
