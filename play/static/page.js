// What the table page and the replay viewer share: asking the server, and the message line.

// The JSON the server answers at `path`; its refusal ({"error": ...}) as a thrown Error.
export async function fetchJson(path, options = {}) {
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) throw new Error(data.error ?? `the server answered ${response.status}`);
  return data;
}

export function showMessage(text, isError = false) {
  const box = document.getElementById("message");
  box.textContent = text ?? "";
  box.classList.toggle("error", isError);
}

// The API path of a table: the id comes from the address bar, so it is encoded, never spliced in raw.
export function sessionPath(session) {
  return `/api/sessions/${encodeURIComponent(session)}`;
}
