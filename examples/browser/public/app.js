// The page's script: no framework, no bundler. Everything Atrium-related goes through @atrium/browser.
import { createClient } from "@atrium/browser"

// The document this page shows: the server made it and gave Ann and Bob their roles on it.
const organizationId = "acme"
const documentId = "spec-42"
const demoUsers = ["ann", "bob"]

const $ = (id) => document.getElementById(id)
let atrium
let room
let stopListening = () => {}

for (const button of document.querySelectorAll("[data-user]")) {
  button.addEventListener("click", () => logIn(button.dataset.user))
}

// A client per signed-in user: the SDK asks the host's token endpoint for the user's token, and
// again before it expires.
async function logIn(user) {
  await logOut()
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
  await followNotifications()
  if (role !== null) {
    await showThreads()
    goLive()
  }
}

// The previous user's room and listeners go before the next user logs in on this page.
async function logOut() {
  stopListening()
  stopListening = () => {}
  await room?.leave()
  room = undefined
  $("people").replaceChildren()
  for (const cursor of document.querySelectorAll(".cursor")) cursor.remove()
}

// Live: who else is here (avatars and cursors), and every change to the document's comments,
// whoever made it and on whichever server. One WebSocket, reconnected by the SDK.
function goLive() {
  room = atrium.enter(organizationId, documentId)
  const stops = [
    room.presence.subscribe(showPeople),
    // A comment added, edited or deleted anywhere: read the threads again.
    room.events.subscribe(() => showThreads()),
    // Reconnected after changes may have been missed: read them again too.
    room.notices.subscribe((notice) => notice.type === "resync" && showThreads())
  ]
  // Our cursor over the document, as a share of its size (the others' windows differ), sent at
  // most once per animation frame; Atrium passes it on at most every 50 ms and stores it at most
  // once a second, whatever the mouse does.
  const doc = $("doc")
  let pending
  const move = (event) => {
    const box = doc.getBoundingClientRect()
    const cursor = { x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.height }
    if (pending === undefined) requestAnimationFrame(() => {
      room?.presence.update({ cursor: pending })
      pending = undefined
    })
    pending = cursor
  }
  doc.addEventListener("mousemove", move)
  stops.push(() => doc.removeEventListener("mousemove", move))
  const previous = stopListening
  stopListening = () => {
    previous()
    stops.forEach((stop) => stop())
  }
}

// One avatar per other user present, and a labelled cursor for those whose cursor is over the document.
function showPeople(others) {
  $("people").replaceChildren(...others.map((entry) => {
    const avatar = document.createElement("span")
    avatar.className = "avatar"
    avatar.dataset.userId = entry.userId
    avatar.title = entry.name ?? entry.userId
    avatar.textContent = (entry.name ?? entry.userId).slice(0, 1).toUpperCase()
    return avatar
  }))
  const doc = $("doc")
  for (const cursor of document.querySelectorAll(".cursor")) cursor.remove()
  for (const entry of others) {
    const at = entry.data?.cursor
    if (typeof at?.x !== "number" || typeof at?.y !== "number") continue
    const cursor = document.createElement("span")
    cursor.className = "cursor"
    cursor.dataset.userId = entry.userId
    cursor.textContent = entry.name ?? entry.userId
    cursor.style.left = `${at.x * 100}%`
    cursor.style.top = `${at.y * 100}%`
    doc.append(cursor)
  }
}

// The bell: the unread count of the user's inbox, read again whenever a notification arrives.
async function followNotifications() {
  $("bell").hidden = false
  const stop = atrium.notifications.subscribe(() => showUnread())
  const previous = stopListening
  stopListening = () => {
    previous()
    stop()
    $("bell").hidden = true
  }
  await showUnread()
}

async function showUnread() {
  const inbox = await atrium.notificationsGet({ organizationId })
  if (failed(inbox)) return
  $("bell-count").textContent = inbox.result.unreadCount > 0 ? String(inbox.result.unreadCount) : ""
}

$("bell").addEventListener("click", async () => {
  if (failed(await atrium.notificationsUpdate({ organizationId, all: true }))) return
  await showUnread()
})

async function showThreads() {
  const threads = await atrium.commentannotationsGet({ organizationId, documentId })
  if (failed(threads)) return
  $("threads").replaceChildren(...threads.result.data.filter(Boolean).map((thread) => {
    const item = document.createElement("li")
    item.textContent = thread.comments.map((comment) => `${comment.from.name}: ${comment.commentText}`).join("\n")
    return item
  }))
}

// A new thread with one comment; its author is the token's user, never an input. "@bob" in the
// text mentions Bob: Atrium notifies the users a comment mentions (the client API always asks).
$("comment-form").addEventListener("submit", async (event) => {
  event.preventDefault()
  const commentText = $("comment-text").value
  const taggedUserContacts = demoUsers.filter((userId) => commentText.toLowerCase().includes(`@${userId}`)).map((userId) => ({ userId, text: `@${userId}` }))
  const added = await atrium.commentannotationsAdd({
    organizationId,
    documentId,
    commentAnnotations: [{ commentData: [{ commentText, taggedUserContacts }] }]
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
