import { defineDomain } from "../Domain.js"
import { Deletions } from "./Deletions.js"
import { JobRunner } from "./JobRunner.js"
import { Jobs } from "./Jobs.js"
import { jobOperations } from "./operations.js"
import { SqlJobsRepo } from "./SqlJobsRepo.js"
import { UserDataExport } from "./UserDataExport.js"

/**
 * Background jobs: user-data deletion and document migration. Their data port (`JobDataPort`)
 * visits every domain's `dataTables`, so the SQL composition root builds it from the domain list.
 */
export const jobsDomain = defineDomain({
  name: "jobs",
  operations: jobOperations,
  // Shared: the organizations', folders' and documents' services delete through it.
  shared: [Deletions.Default],
  services: [Jobs.Default, JobRunner.Default, UserDataExport.Default],
  repositories: [SqlJobsRepo],
  otherTables: [{ name: "jobs", why: "the jobs' progress: the ids they work on, which their status answers name" }]
})
