"use strict";
// The compare page of `rulekit serve`: it sends the choices, polls the comparison's progress,
// and shows the server's report. No statistics here: the report is the CLI's.
const HANDOVER = "rulekit-compare"; // {"a": {"rules"}, "b": {"text", "beside"}} from the editor
const POLL_MS = 300;
let job = null;       // the comparison running or shown
let timer = null;
let edited = null;    // B as rule text handed over by the editor, or null

function readHandover() {
  try {
    const given = JSON.parse(sessionStorage.getItem(HANDOVER) || "null");
    return given && given.b && typeof given.b.text === "string" ? given : null;
  } catch (err) {
    return null;
  }
}

function showEdited() {
  $("b-text").hidden = !edited;
  $("b-file").hidden = !!edited;
  if (edited) {
    const base = edited.beside ? `extends ${edited.beside}` : "from the bundled rules";
    $("b-said").textContent = `B: your edited rules (${base})`;
  }
}

function spec() {
  const bots = [...$("bots").selectedOptions].map((o) => o.value);
  const out = {
    a: { rules: $("a").value },
    b: edited ? { text: edited.text } : { rules: $("b").value },
    rounds: Number($("rounds").value),
    seed: Number($("seed").value),
  };
  if (edited && edited.beside) out.b.beside = edited.beside;
  if (bots.length) out.bots = bots;
  if ($("seats").value) out.seats = Number($("seats").value);
  return out;
}

function running(on) {
  $("run").disabled = on;
  $("cancel").hidden = !on;
  $("running").hidden = false;
}

async function run(event) {
  event.preventDefault();
  stopPolling();
  showError(null);
  $("result").hidden = true;
  try {
    const started = await api("POST", "/api/compare", spec());
    job = started.job;
    $("progress").max = started.total;
    $("progress").value = 0;
    $("progress-text").textContent = `0 of ${started.total} rounds`;
    running(true);
    timer = setTimeout(poll, POLL_MS);
  } catch (err) {
    showError(err);
  }
}

function stopPolling() {
  if (timer) clearTimeout(timer);
  timer = null;
}

async function poll() {
  timer = null;
  let status;
  try {
    status = await api("GET", `/api/compare/${job}`);
  } catch (err) {
    running(false);
    showError(err);
    return;
  }
  $("progress").max = status.total;
  $("progress").value = status.done;
  $("progress-text").textContent = `${status.done} of ${status.total} rounds (${status.state})`;
  if (status.state === "running") {
    timer = setTimeout(poll, POLL_MS);
    return;
  }
  running(false);
  if (status.state === "failed") showError(new Error(status.error));
  if (status.state === "done") showResult(status);
}

function showResult(status) {
  const url = `/api/compare/${status.job}/report`;
  $("headline").textContent = status.summary.title;
  $("verdict").textContent = status.summary.verdict;
  $("dl-html").href = url;
  $("dl-md").href = `${url}?format=md`;
  $("dl-json").href = `${url}?format=json`;
  $("report").src = url;
  $("result").hidden = false;
}

async function cancel() {
  stopPolling();
  try {
    const status = await api("DELETE", `/api/compare/${job}`);
    $("progress-text").textContent = `${status.done} of ${status.total} rounds (cancelled)`;
  } catch (err) {
    showError(err);
  }
  running(false);
}

async function init() {
  const opts = await api("GET", "/api/compare/options");
  for (const id of ["a", "b"]) opts.rules.forEach((name) => $(id).add(new Option(name, name)));
  opts.bots.forEach((name) => $("bots").add(new Option(name, name, false, name === opts.bot)));
  $("rounds").min = opts.rounds[0];
  $("rounds").max = opts.rounds[1];
  $("a").value = opts.rules.includes("hachihachi") ? "hachihachi" : opts.rules[0];
  $("b").value = opts.rules.includes("hachihachi/kirisame") ? "hachihachi/kirisame" : opts.rules[1];
  const given = readHandover();
  if (given) {
    edited = given.b;
    if (given.a && opts.rules.includes(given.a.rules)) $("a").value = given.a.rules;
  }
  showEdited();
  $("compare-form").addEventListener("submit", run);
  $("cancel").addEventListener("click", cancel);
  $("b-drop").addEventListener("click", () => {
    sessionStorage.removeItem(HANDOVER);
    edited = null;
    showEdited();
  });
}

init().catch(showError);
