  // Included into review.js's closure by alignbench.review.page.render_page (at "@include
  // review-keys.js"): it uses the page's state (S, cursor, history, cardCache) and its actions
  // (onCard, sortedDecisions, refresh), so it is not a script of its own.
  // ---------- keyboard review, undo and the logged bulk confirm ----------
  const KEYS = [
    ["j / ↓", "next row"], ["k / ↑", "previous row"], ["n", "next undecided row (wraps round)"], ["c / Enter", "confirm the row, go to the next"],
    ["p", "pick the row's partner (then click it in the other document)"], ["m", "flag or unflag the row as a move"],
    ["x", "mark the row inserted/deleted"], ["u / Ctrl+Z", "undo the last change"], ["Esc", "cancel a pick, clear the selection"], ["?", "show or hide these keys"],
  ];
  function setCursor(id) {
    if (cursor !== null) { const old = cardCache.get(cursor); if (old) old.classList.remove("current"); }
    cursor = id;
    const el = id === null ? null : cardCache.get(id);
    if (el) { el.classList.add("current"); el.scrollIntoView({ block: "nearest" }); }
  }
  function step(delta, undecidedOnly) {
    const list = sortedDecisions();
    if (!list.length) return;
    let i = list.findIndex((d) => d.id === cursor);
    if (i < 0) i = delta > 0 ? -1 : list.length;
    if (undecidedOnly) {  // the next undecided row, wrapping round to the top
      for (let k = 1; k <= list.length; k++) {
        const d = list[(i + k + list.length) % list.length];
        if (!d.decided) { setCursor(d.id); return; }
      }
      notice("Every row is decided: export when you are ready.");
      return;
    }
    const j = i + delta;
    if (j >= 0 && j < list.length) setCursor(list[j].id);
  }
  function current() { return S.decisions.find((d) => d.id === cursor) || null; }
  function undo() {
    if (!history.length) { notice("Nothing to undo."); return; }
    S = JSON.parse(history.pop());
    pick = null; clearSel(); reindex(); notice("Undone."); refresh(true);
    if (cursor !== null && !current()) cursor = null;
    setCursor(cursor);
  }
  function exactMatch(d) {
    if (d.what !== "correspondence" || d.move || d.decided || d.origin !== "draft" || !draftKeys.has(keyOf(d))) return false;
    const a = blockOf("source", d.source[0]), b = blockOf("test", d.test[0]);
    return a.t === b.t && a.l === b.l;
  }
  function confirmExact() {
    const rows = sortedDecisions().filter(exactMatch);
    if (!rows.length) { notice("No undecided, unchanged exact match is left."); return; }
    checkpoint();
    for (const d of rows) d.decided = true;
    S.bulk.push({ action: "confirm_unchanged_exact_matches", rows: rows.map((d) => ({ source: d.source[0], test: d.test[0] })) });
    notice("Confirmed " + rows.length + " unchanged exact match(es): same label and same text on both sides. The export records which; Undo (u) takes it back.");
    refresh(false);
  }
  function toggleKeys() {
    let box = $("#keys");
    if (box) { box.remove(); return; }
    box = document.createElement("div");
    box.id = "keys"; box.className = "keys";
    box.innerHTML = "<strong>Keys</strong><table>" + KEYS.map(([k, what]) => "<tr><th>" + esc(k) + "</th><td>" + esc(what) + "</td></tr>").join("") + "</table>";
    document.body.appendChild(box);
  }
  function onKey(ev) {
    if (ev.key === "Escape") { pick = null; clearSel(); notice(""); paintBlocks(); const k = $("#keys"); if (k) k.remove(); return; }
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
    if (ev.altKey || ev.metaKey) return;
    if (ev.ctrlKey) { if (ev.key === "z") { ev.preventDefault(); undo(); } return; }
    if (ev.key === "?") { toggleKeys(); return; }
    if (ev.key === "u") { undo(); return; }
    if (S.step !== "review") return;
    const d = current();
    const acts = {
      j: () => step(1), ArrowDown: () => step(1), k: () => step(-1), ArrowUp: () => step(-1), n: () => step(1, true),
      c: () => { if (d) { onCard(d, "confirm"); step(1); } }, Enter: () => { if (d) { onCard(d, "confirm"); step(1); } },
      p: () => { if (d && d.what !== "unscored") onCard(d, "partner"); },
      m: () => { if (d && d.what === "correspondence") onCard(d, "move"); },
      x: () => { if (d && d.what !== "inserted" && d.what !== "deleted") onCard(d, "unlink"); },
    };
    const act = acts[ev.key];
    if (!act) return;
    ev.preventDefault();
    if (!d && !["j", "k", "n", "ArrowDown", "ArrowUp"].includes(ev.key)) { notice("Press j to pick a row first."); return; }
    act();
  }
