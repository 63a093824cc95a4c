"use strict";
// How every page of `rulekit serve` draws a card (the play page, the editor's eval).
const EMBLEM = {
  light: '<circle cx="20" cy="14" r="9" fill="#d33"/>',
  animal: '<path d="M20 4 L30 14 L20 24 L10 14 Z" fill="#3a7d44"/>',
  ribbon: '<rect x="8" y="8" width="24" height="12" rx="2" fill="#b22"/>',
  plain: '<path d="M6 22 Q20 2 34 22" stroke="#555" stroke-width="3" fill="none"/>',
};
const CLASS_MARK = { light: "L", animal: "A", ribbon: "R", plain: "P" };

// A card: its face (the deck's art; a drawn face in the same frame for a card beyond the 48),
// a corner index (month, class) readable at a glance, and its points where they count
// (`how.points`); `how.months`: the deck's month names by number.
function drawCard(c, extra, how) {
  const el = document.createElement("div");
  el.className = `card cls-${c.class} ${extra || ""}`;
  c.tags.forEach((t) => el.classList.add(`tag-${t}`));
  el.dataset.card = c.id;
  // a bonus card (month 0) has no month: it says so
  const month = c.month === 0 ? "bonus card" : (how.months && how.months[c.month]) || c.month;
  const points = how.points ? `, ${c.points} points` : "";
  el.title = `${c.id} ${c.label} (${month}, ${c.class}${points})`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", `${c.label}, ${month}, ${c.class}${points}`);
  const mark = Object.hasOwn(CLASS_MARK, c.class) ? CLASS_MARK[c.class] : c.class.slice(0, 1).toUpperCase();
  const index = `<span class="idx">${esc(c.month === 0 ? "+" : c.month)}<b>${esc(mark)}</b></span>`;
  const pts = how.points ? `<span class="pts">${esc(c.points)}</span>` : "";
  if (c.face) {
    el.innerHTML = `<img src="/static/cards/${esc(c.face)}.svg" alt="" draggable="false">${index}${pts}`;
  } else {
    el.classList.add("drawn-face");
    el.innerHTML = index + `<span class="mname">${esc(month)}</span>` +
      `<svg viewBox="0 0 40 28" aria-hidden="true">${Object.hasOwn(EMBLEM, c.class) ? EMBLEM[c.class] : ""}</svg>` +
      `<span class="cname">${esc(c.label)}</span>${pts}`;
  }
  return el;
}

