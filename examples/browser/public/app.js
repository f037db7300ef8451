// The page's script: no framework, no bundler. Everything Atrium-related goes through @atrium/browser.
import { createClient } from "@atrium/browser"

// The document this page shows: the server made it and gave Ann and Bob their roles on it.
const organizationId = "acme"
const documentId = "spec-42"

const $ = (id) => document.getElementById(id)
let atrium

for (const button of document.querySelectorAll("[data-user]")) {
  button.addEventListener("click", () => logIn(button.dataset.user))
}

// A client per signed-in user: the SDK asks the host's token endpoint for the user's token, and
// again before it expires.
async function logIn(user) {
  atrium = createClient({
    baseUrl: location.origin, // Atrium is mounted at the root of this origin
    getToken: async () => {
      const response = await fetch(`/token?user=${encodeURIComponent(user)}`, { method: "POST" })
      if (!response.ok) throw new Error(await response.text())
      return response.text()
    }
  })
  const session = await atrium.sessionGet()
  if (failed(session)) return
  const access = await atrium.accessGet({ organizationId, documentIds: [documentId] })
  if (failed(access)) return
  const role = access.result.data[documentId].accessRole // "editor", "viewer" or null
  $("who").textContent = `Logged in as ${session.result.data.user.name}, ${role ?? "no access"}.`
  // A viewer may read the threads but not write: the box is off (and Atrium refuses a write anyway).
  $("comment-text").disabled = $("comment-send").disabled = role !== "editor"
  $("comments").hidden = role === null
  if (role !== null) await showThreads()
}

async function showThreads() {
  const threads = await atrium.commentannotationsGet({ organizationId, documentId })
  if (failed(threads)) return
  $("threads").replaceChildren(...threads.result.data.filter(Boolean).map((thread) => {
    const item = document.createElement("li")
    item.textContent = thread.comments.map((comment) => `${comment.from.name}: ${comment.commentText}`).join("\n")
    return item
  }))
}

// A new thread with one comment; its author is the token's user, never an input.
$("comment-form").addEventListener("submit", async (event) => {
  event.preventDefault()
  const added = await atrium.commentannotationsAdd({
    organizationId,
    documentId,
    commentAnnotations: [{ commentData: [{ commentText: $("comment-text").value }] }]
  })
  if (failed(added)) return
  $("comment-text").value = ""
  await showThreads()
})

// A call never throws: it gives { result } or { error }. Errors are shown as text.
function failed(outcome) {
  $("error").textContent = outcome.error ? `${outcome.error.status}: ${outcome.error.message}` : ""
  return outcome.error !== undefined
}
