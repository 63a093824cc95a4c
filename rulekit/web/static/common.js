"use strict";
// What every page of `rulekit serve` shares: the JSON API call, the error box, escaping.

const $ = (id) => document.getElementById(id);

// A call to the server's JSON API; its {"error": ...} thrown as an Error with that message.
async function api(method, url, body, raw) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.body = raw ? body : JSON.stringify(body);
    init.headers["Content-Type"] = raw ? "application/toml" : "application/json";
  }
  const res = await fetch(url, init);
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

// The page's role=alert box: the server's located message, or hidden.
function showError(err) {
  const box = $("error");
  // (the box is the error: the CLI's "error: " before a message without a place is left out)
  box.textContent = err ? String(err.message || err).replace(/^error: /, "") : "";
  box.hidden = !err;
}

// Names and labels come from rule files (and from text typed in the editor): text, never markup.
function esc(value) {
  return String(value).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
