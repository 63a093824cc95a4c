"use strict";
// The rules editor of `rulekit serve`: the server checks the text as the CLI checks a file
// (POST /api/rules/check); this page underlines what it says, and shows the rulebook, the diff
// against the file the text extends, and the evaluation of a hand. No rule logic here.
const NAME = "editor.rk";           // how the server names the text in its messages
const STORE = "rulekit-editor";     // localStorage: {text, beside}, so a reload keeps the text
const COMPARE = "rulekit-compare";  // sessionStorage: what the compare page opens
const DELAY_MS = 300;               // typing pauses this long before a check

let editor = null;
let Range = null;
let beside = null;    // the offered file relative names are read beside (null: the bundled rules)
let asked = 0;        // the number of the last check sent: older answers are ignored
let timer = null;
let last = null;      // the last check's answer
let marks = [];

// ---------------------------------------------------------------- the rule language's colours
const KEYWORDS = ("game variant source extends deck name classes tags month card expect points " +
  "treat teyaku yaku multiplier seats deal dealer round rounds scoring score count view set " +
  "wild team teams instant void setup sit and or not if unless when then").split(" ");

function defineMode() {
  ace.define("ace/mode/rulekit_highlight_rules",
    ["require", "exports", "module", "ace/lib/oop", "ace/mode/text_highlight_rules"],
    (require, exports) => {
      const oop = require("ace/lib/oop");
      const Base = require("ace/mode/text_highlight_rules").TextHighlightRules;
      function Rules() {
        this.$rules = {
          start: [
            { token: "comment", regex: "#.*$" },
            { token: "string", regex: '"[^"\\n]*"?' },
            { token: "constant.numeric", regex: "\\b(?:x[1-9][0-9]*|[0-9]+)\\b" },
            { token: this.createKeywordMapper({ keyword: KEYWORDS.join("|") }, "identifier"),
              regex: "[A-Za-z_][A-Za-z0-9_]*" },
          ],
        };
      }
      oop.inherits(Rules, Base);
      exports.RulekitHighlightRules = Rules;
    });
  ace.define("ace/mode/rulekit",
    ["require", "exports", "module", "ace/lib/oop", "ace/mode/text", "ace/mode/rulekit_highlight_rules"],
    (require, exports) => {
      const oop = require("ace/lib/oop");
      const TextMode = require("ace/mode/text").Mode;
      function Mode() {
        this.HighlightRules = require("ace/mode/rulekit_highlight_rules").RulekitHighlightRules;
        this.lineCommentStart = "#";
      }
      oop.inherits(Mode, TextMode);
      Mode.prototype.$id = "ace/mode/rulekit";
      exports.Mode = Mode;
    });
}

// ---------------------------------------------------------------- checking as you type
function request(extra) {
  return { text: editor.getValue(), ...(beside ? { beside } : {}), ...extra };
}

function changed() {
  localStorage.setItem(STORE, JSON.stringify({ text: editor.getValue(), beside }));
  clearTimeout(timer);
  timer = setTimeout(check, DELAY_MS);
  $("status").textContent = "checking...";
}

async function check() {
  const mine = ++asked;
  try {
    const answer = await api("POST", "/api/rules/check", request({}));
    if (mine !== asked) return;  // the text changed since: a newer check is on its way
    showError(null);
    show(answer);
  } catch (err) {
    if (mine === asked) { showError(err); $("status").textContent = "not checked"; }
  }
}

function span(d) {
  // 1-based line and column, end exclusive -> an Ace range, at least one character wide
  const session = editor.session;
  const row = Math.max(0, Math.min(d.line - 1, session.getLength() - 1));
  const length = session.getLine(row).length;
  let start = d.column - 1;
  let end = d.end_line === d.line ? d.end_column - 1 : length;
  if (start >= length) start = Math.max(0, length - 1);  // at the end of the line: its last character
  end = Math.min(Math.max(end, start + 1), Math.max(length, start + 1));
  return new Range(row, start, row, end);
}

function show(answer) {
  last = answer;
  const session = editor.session;
  marks.forEach((id) => session.removeMarker(id));
  marks = [];
  const located = answer.diagnostics.filter((d) => d.file === NAME && d.line);
  marks = located.map((d) => session.addMarker(span(d), `rk-mark rk-${d.severity}`, "text", true));
  session.setAnnotations(located.map((d) => ({
    row: span(d).start.row, column: d.column - 1, type: d.severity,
    text: d.message + (d.hint ? `\n${d.hint}` : ""),
  })));
  renderDiagnostics(answer.diagnostics);
  const errors = answer.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = answer.diagnostics.length - errors;
  const counted = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  $("count").textContent = answer.diagnostics.length ? `(${answer.diagnostics.length})` : "";
  $("status").textContent = answer.ok
    ? `ok: ${answer.title}` + (warnings ? ` · ${counted(warnings, "warning")}` : "")
    : counted(errors, "error");
  $("status").className = answer.ok ? (warnings ? "warning" : "ok") : "error";
  $("title").textContent = answer.title || "";
  $("rulebook").textContent = answer.describe || "The rules have errors: the rulebook shows once they are fixed.";
  $("diff").textContent = answer.diff ||
    (answer.parent ? "The rules have errors: the diff shows once they are fixed."
      : "This text extends no file: there is no parent to compare with.");
  const playable = answer.ok && answer.parent_offered;
  $("play-this").disabled = !playable;
  $("compare-parent").disabled = !playable;
  const why = answer.ok ? "the text must extend a rule file offered here" : "fix the errors first";
  $("play-this").title = playable ? `play ${answer.title}` : why;
  $("compare-parent").title = playable ? `compare with ${answer.parent}` : why;
}

function renderDiagnostics(diagnostics) {
  const list = $("diagnostics");
  list.innerHTML = "";
  if (!diagnostics.length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = "No errors or warnings.";
    list.appendChild(li);
  }
  diagnostics.forEach((d) => {
    const li = document.createElement("li");
    li.className = `diagnostic ${d.severity}`;
    const where = d.line ? `${d.file === NAME ? "" : d.file + ":"}${d.line}:${d.column}` : d.severity;
    const head = document.createElement("div");
    head.className = "message";
    head.textContent = `${where} ${d.severity}: ${d.message}`;
    li.appendChild(head);
    if (d.hint) {
      const hint = document.createElement("div");
      hint.className = "hint";
      hint.textContent = d.hint;
      li.appendChild(hint);
    }
    if (d.file === NAME && d.line) {
      li.dataset.line = d.line;
      li.tabIndex = 0;
      const jump = () => { editor.gotoLine(d.line, d.column - 1, true); editor.focus(); };
      li.addEventListener("click", jump);
      li.addEventListener("keydown", (e) => { if (e.key === "Enter") jump(); });
    }
    list.appendChild(li);
  });
}

// ---------------------------------------------------------------- tabs, eval, buttons
function showPanel(name) {
  document.querySelectorAll("#tabs [role=tab]").forEach((tab) => {
    const on = tab.dataset.panel === name;
    tab.setAttribute("aria-selected", String(on));
    $(`panel-${tab.dataset.panel}`).hidden = !on;
  });
}

async function evaluate(event) {
  event.preventDefault();
  try {
    const answer = await api("POST", "/api/rules/eval", request({ hand: $("hand").value, mode: $("mode").value }));
    $("eval-result").textContent = answer.text;
    $("eval-result").className = "";
    $("eval-cards").innerHTML = "";
    answer.cards.forEach((c) => $("eval-cards").appendChild(drawCard(c, "", { points: true })));
  } catch (err) {
    $("eval-cards").innerHTML = "";
    $("eval-result").textContent = String(err.message || err);
    $("eval-result").className = "error";
  }
}

async function playThis() {
  try {
    const state = await api("POST", "/api/games", request({}));
    location.href = `/#game=${encodeURIComponent(state.id)}`;
  } catch (err) { showError(err); }
}

function compareWithParent() {
  if (!last || !last.parent) return;
  const pair = { a: { rules: last.parent }, b: { text: editor.getValue(), beside } };
  sessionStorage.setItem(COMPARE, JSON.stringify(pair));
  location.href = "/compare";
}

async function load(name) {
  try {
    const file = await api("GET", "/api/rules/source" + (name ? `?name=${encodeURIComponent(name)}` : ""));
    beside = file.name;
    editor.setValue(file.text, -1);  // a change: saved and checked
    showError(null);
  } catch (err) { showError(err); }
}

// The text as a .rk file the browser saves: named after the file it started from, else
// house-rules.rk.
function download() {
  const base = beside ? beside.split("/").pop().replace(/\.(rk|json)$/, "") : "house-rules";
  const blob = new Blob([editor.getValue()], { type: "text/plain;charset=utf-8" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `${base}.rk`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// A .rk file from the person's disk, into the editor (its `extends` names an offered file).
async function openFile() {
  const file = $("open-file").files[0];
  if (!file) return;
  if (file.size > 48 * 1024) { showError(new Error(`${file.name} is larger than the 48 KiB of rule text a page may send`)); return; }
  try {
    const text = await file.text();
    beside = null;
    $("start-from").value = "";
    editor.setValue(text, -1);  // a change: saved and checked
    showError(null);
  } catch (err) { showError(err); }
  $("open-file").value = "";
}

async function init() {
  defineMode();
  Range = ace.require("ace/range").Range;
  ace.config.set("basePath", "/static/vendor/ace");  // anything Ace loads, it loads from here
  editor = ace.edit("editor", {
    mode: "ace/mode/rulekit",
    theme: "ace/theme/textmate",
    useWorker: false,
    fontSize: "14px",
    showPrintMargin: false,
    tabSize: 2,
    useSoftTabs: true,
  });
  editor.session.on("change", changed);
  document.querySelectorAll("#tabs [role=tab]").forEach((tab) =>
    tab.addEventListener("click", () => showPanel(tab.dataset.panel)));
  $("eval-form").addEventListener("submit", evaluate);
  $("play-this").addEventListener("click", playThis);
  $("compare-parent").addEventListener("click", compareWithParent);
  $("load").addEventListener("click", () => load($("start-from").value));
  $("download").addEventListener("click", download);
  $("open-file").addEventListener("change", openFile);
  const opts = await api("GET", "/api/options");
  opts.rules.forEach((name) => $("start-from").add(new Option(name, name)));
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(STORE) || "null"); } catch (err) { kept = null; }
  if (kept && typeof kept.text === "string") {
    beside = opts.rules.includes(kept.beside) ? kept.beside : null;
    if (beside) $("start-from").value = beside;
    editor.setValue(kept.text, -1);
  } else {
    await load("");
  }
}

init().catch(showError);
