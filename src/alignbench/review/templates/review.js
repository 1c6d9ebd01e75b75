// alignbench review page. No network: everything it needs is in #review-data.
// Decisions mirror the sheet's lines (alignbench.labels.sheet): correspondence, inserted, deleted,
// split, merge, unscored; every labelled block is in exactly one decision at all times.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("review-data").textContent);
  const FORMAT = "alignbench/review-decisions/v2";
  const SIDES = ["source", "test"];
  const STORE = "alignbench-review:" + D.pair + ":" + D.draft.sha256;
  const blocks = {}, pos = {}, byName = {};
  for (const side of SIDES) {
    blocks[side] = D.documents[side].blocks;
    pos[side] = {};
    blocks[side].forEach((b, i) => { pos[side][b.a] = i; byName[b.n] = { side: side, a: b.a }; });
  }
  const blockOf = (side, a) => blocks[side][pos[side][a]];

  // ---------- state ----------
  let S = null;
  function fresh() {
    return {
      step: "moves", coldMoves: [], nextId: D.decisions.length, bulk: [],
      decisions: D.decisions.map((d, i) => ({
        id: "d" + i, what: d.what, source: d.source.slice(), test: d.test.slice(), move: !!d.move,
        note: d.note || null, reason: d.reason || null, decided: false, origin: "draft",
      })),
    };
  }
  function load() {
    try {
      const raw = window.localStorage.getItem(STORE);
      if (raw) { const s = JSON.parse(raw); if (s && s.decisions) { s.bulk = s.bulk || []; return s; } }
    } catch (e) { /* storage unavailable: start fresh */ }
    return fresh();
  }
  function save() {
    try { window.localStorage.setItem(STORE, JSON.stringify(S)); } catch (e) { notice("Progress could not be saved in this browser: " + e.message); }
  }
  const sel = { source: new Set(), test: new Set() };
  let pick = null;  // {id, side: side to pick on}
  // Undo: a snapshot of the state before every change (kept in memory for this visit, newest last).
  const history = [];
  const HISTORY_MAX = 500;
  function checkpoint() { history.push(JSON.stringify(S)); if (history.length > HISTORY_MAX) history.shift(); }
  let cursor = null;  // id of the card the keyboard acts on
  let owner = { source: {}, test: {} };
  function reindex() {
    owner = { source: {}, test: {} };
    for (const d of S.decisions) for (const side of SIDES) for (const a of d[side]) owner[side][a] = d;
  }
  const draftKeys = new Set(D.decisions.map(keyOf));
  function keyOf(d) {
    return [d.what, d.source.slice().sort().join(" "), d.test.slice().sort().join(" "), d.what === "correspondence" && d.move ? "move" : "", d.what === "unscored" ? d.reason : ""].join("|");
  }

  // ---------- editing: one generic relink keeps the decisions total ----------
  function newDecision(what, source, test, extra) {
    const d = Object.assign({ id: "d" + (S.nextId++), what: what, source: source, test: test, move: false, note: null, reason: null, decided: true, origin: "reviewer" }, extra || {});
    S.decisions.push(d);
    return d;
  }
  function shape(d) {
    // A decision that lost blocks falls back to the shape its remaining blocks allow, and asks again.
    const s = d.source.length, t = d.test.length;
    if (d.what === "unscored") return s + t > 0 ? [d] : [];
    if (s === 0 && t === 0) return [];
    if (s === 0) return d.test.map((a) => ({ id: "d" + (S.nextId++), what: "inserted", source: [], test: [a], move: false, note: null, reason: null, decided: false, origin: "consequence" }));
    if (t === 0) return d.source.map((a) => ({ id: "d" + (S.nextId++), what: "deleted", source: [a], test: [], move: false, note: null, reason: null, decided: false, origin: "consequence" }));
    if (s === 1 && t === 1) return [Object.assign(d, { what: "correspondence", decided: false })];
    if (s === 1) return [Object.assign(d, { what: "split", move: false, decided: false })];
    if (t === 1) return [Object.assign(d, { what: "merge", move: false, decided: false })];
    return [Object.assign(d, { what: "unscored", move: false, reason: d.reason || "several blocks on both sides", decided: false })];
  }
  function detach(addresses) {
    const touched = new Set();
    for (const side of SIDES) for (const a of addresses[side]) {
      const d = owner[side][a];
      if (!d) continue;
      d[side] = d[side].filter((x) => x !== a);
      touched.add(d);
    }
    const out = [];
    for (const d of S.decisions) out.push(...(touched.has(d) ? shape(d) : [d]));
    S.decisions = out;
  }
  function relink(source, test, opts) {
    opts = opts || {};
    detach({ source: source, test: test });
    let made = [];
    if (source.length && test.length && !opts.unlink) {
      const what = source.length === 1 && test.length === 1 ? "correspondence" : source.length === 1 ? "split" : test.length === 1 ? "merge" : null;
      if (!what) { notice("Several blocks on both sides is neither a split nor a merge."); return []; }
      made = [newDecision(what, source, test, { move: what === "correspondence" && !!opts.move, note: opts.note || null })];
    } else {
      made = source.map((a) => newDecision("deleted", [a], [])).concat(test.map((a) => newDecision("inserted", [], [a])));
    }
    reindex();
    return made;
  }

  // ---------- rendering ----------
  const $ = (sel_, root) => (root || document).querySelector(sel_);
  const esc = (s) => String(s == null ? "" : s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  // Document text arrives with every hidden character already a glyph (alignbench.visible): mark it.
  const GLYPH = /⟨U\+[0-9A-F]{4,6}⟩/g;
  const vis = (s) => esc(s).replace(GLYPH, (g) => '<span class="invisible" title="an invisible or direction-changing character">' + g + "</span>");
  const bare = (s) => String(s).replace(GLYPH, "").split(/\s+/).filter(Boolean).join(" ");
  function notice(text) { const n = $("#notice"); n.textContent = text; n.hidden = !text; }
  function renderDocs() {
    for (const side of SIDES) {
      $("#file-" + side).textContent = D.documents[side].file;
      const parts = blocks[side].map((b) =>
        '<div class="blk k-' + b.k + '" id="' + b.n + '" data-side="' + side + '" data-a="' + esc(b.a) + '" title="' + esc(b.a) + '" style="margin-left:' + Math.max(0, b.d - 1) * 0.9 + 'em">' +
        '<span class="sid">' + b.n + "</span>" + (b.l ? '<bdi class="lbl">' + vis(b.l) + "</bdi>" : "") + '<bdi class="txt">' + vis(b.t) + "</bdi></div>");
      $("#doc-" + side + " .blocks").innerHTML = parts.join("");
    }
  }
  function names(side, list) { return list.map((a) => blockOf(side, a).n).join(" ") || "–"; }
  function describe(side, list) {
    return list.map((a) => { const b = blockOf(side, a); return b.n + (b.l ? " " + b.l : ""); }).join(", ") || "–";
  }
  function kindOf(d) {
    if (d.what !== "correspondence") return d.what;
    if (d.move) return "move";
    return blockOf("source", d.source[0]).l === blockOf("test", d.test[0]).l ? "same" : "renumber";
  }
  function lcsDiff(a, b) {
    // Word LCS for links the reviewer made (draft and engine pairs come with a precomputed diff).
    const n = a.length, m = b.length;
    if (n * m > 4e6) return [["-", a.join(" ")], ["+", b.join(" ")]];
    const t = []; for (let i = 0; i <= n; i++) t.push(new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) t[i][j] = a[i] === b[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
    const ops = []; let i = 0, j = 0;
    const push = (op, w) => { const last = ops[ops.length - 1]; if (last && last[0] === op) last[1] += " " + w; else ops.push([op, w]); };
    while (i < n && j < m) { if (a[i] === b[j]) { push("=", a[i]); i++; j++; } else if (t[i + 1][j] >= t[i][j + 1]) push("-", a[i++]); else push("+", b[j++]); }
    while (i < n) push("-", a[i++]); while (j < m) push("+", b[j++]);
    return ops;
  }
  function evidenceOf(d) {
    const ev = D.evidence[d.source[0] + "\u001f" + d.test[0]];
    if (ev) return ev;
    const a = blockOf("source", d.source[0]).t, b = blockOf("test", d.test[0]).t;
    const ops = a === b ? null : lcsDiff(a.split(/\s+/).filter(Boolean), b.split(/\s+/).filter(Boolean));
    let same = 0, total = 0;
    for (const [op, w] of ops || [["=", a]]) { const k = w.split(" ").filter(Boolean).length; total += op === "=" ? 2 * k : k; if (op === "=") same += 2 * k; }
    return { proposed_by: null, engine: null, similarity: total ? Math.round((same / total) * 1000) / 1000 : 1, diff: ops, hidden_only: a !== b && bare(a) === bare(b) };
  }
  function diffHtml(ops) {
    return ops.map(([op, w]) => (op === "=" ? vis(w) : op === "-" ? "<del>" + vis(w) + "</del>" : "<ins>" + vis(w) + "</ins>")).join(" ");
  }
  function cardHtml(d) {
    const kind = kindOf(d);
    let head = '<span class="what">' + esc(describe("source", d.source)) + " → " + esc(describe("test", d.test)) + '</span><span class="kind ' + kind + '">' + kind + "</span>";
    let body = "";
    if (d.what === "correspondence") {
      const ev = evidenceOf(d);
      const bits = [];
      if (ev.proposed_by) bits.push("proposed by " + ev.proposed_by);
      bits.push("similarity " + ev.similarity.toFixed(3));
      if (ev.engine) bits.push("engine: " + ev.engine.pass + " " + ev.engine.confidence.toFixed(3));
      else bits.push("engine: not paired");
      head += '<span class="ev">' + esc(bits.join(" · ")) + "</span>";
      if (ev.engine && ev.engine.moved) head += '<span class="badge engine-move" title="the engine reports this pair as moved">engine: moved</span>';
      if (ev.hidden_only) head += '<span class="badge hidden-only" title="the two texts look the same: they differ only in the characters marked ⟨U+…⟩">⚠ invisible characters only</span>';
      body = ev.diff ? '<div class="diff"><bdi>' + diffHtml(ev.diff) + "</bdi></div>" : '<div class="text"><bdi>' + vis(blockOf("source", d.source[0]).t) + '</bdi> <span class="ev">(identical text)</span></div>';
    } else {
      const side = d.source.length ? "source" : "test";
      const texts = SIDES.flatMap((s) => d[s].map((a) => blockOf(s, a).t));
      body = '<div class="text">' + texts.map((t) => "<bdi>" + (d.what === "deleted" ? "<del>" + vis(t) + "</del>" : d.what === "inserted" ? "<ins>" + vis(t) + "</ins>" : vis(t)) + "</bdi>").join("<br>") + "</div>";
      if (d.what === "unscored") head += '<span class="ev">' + esc(d.reason) + "</span>";
      void side;
    }
    if (!draftKeys.has(keyOf(d))) head += '<span class="badge changed">changed</span>';
    const ctl = ['<button data-act="confirm">' + (d.decided ? "✓ Decided" : "Confirm") + "</button>"];
    if (d.what !== "unscored") ctl.push('<button data-act="partner">Pick partner</button>');
    if (d.what !== "inserted" && d.what !== "deleted") ctl.push('<button data-act="unlink">Mark inserted/deleted</button>');
    if (d.what === "correspondence") ctl.push('<button data-act="move">' + (d.move ? "Unflag move" : "Flag move") + "</button>");
    ctl.push('<button data-act="select">Select blocks</button>');
    ctl.push('<input class="note" placeholder="note" value="' + esc(d.note || "") + '">');
    return '<div class="head">' + head + "</div>" + body + '<div class="ctl">' + ctl.join("") + "</div>";
  }
  function orderKeys() {
    // One pass: a decision sorts by its first source block; an insertion sits just after the source
    // block linked to the test block before it, so the list reads in both documents' order.
    const minPos = (side, list) => Math.min(...list.map((a) => pos[side][a]));
    const anchorAt = new Array(blocks.test.length);
    let last = -1;
    blocks.test.forEach((b, j) => { anchorAt[j] = last; const d = owner.test[b.a]; if (d && d.source.length) last = minPos("source", d.source); });
    const keys = new Map();
    for (const d of S.decisions) {
      const t = d.test.length ? minPos("test", d.test) : -1;
      keys.set(d.id, d.source.length ? [minPos("source", d.source), t] : [anchorAt[t] + 0.5, t]);
    }
    return keys;
  }
  function sortedDecisions() {
    const keys = orderKeys();
    return S.decisions.slice().sort((x, y) => { const a = keys.get(x.id), b = keys.get(y.id); return a[0] - b[0] || a[1] - b[1]; });
  }
  const cardCache = new Map();
  function renderCards() {
    const mid = $("#mid");
    if (S.step === "moves") { renderCold(mid); return; }
    let list = $("#cards");
    if (!list) {
      mid.innerHTML = '<h2>Decisions <small id="count"></small></h2><div id="engine-moves"></div><div id="cards"></div>';
      list = $("#cards");
      renderEngineMoves();
    }
    const sorted = sortedDecisions();
    const frag = document.createDocumentFragment();
    const live = new Set();
    for (const d of sorted) {
      const sig = [keyOf(d), d.decided, d.note || "", d.move].join("\u001e");
      let el = cardCache.get(d.id);
      if (!el || el.dataset.sig !== sig) {
        el = el || document.createElement("div");
        el.className = "card " + d.what + (d.decided ? " decided" : "");
        el.dataset.id = d.id; el.dataset.sig = sig;
        el.dataset.blocks = names("source", d.source).replace("–", "") + " " + names("test", d.test).replace("–", "");
        el.innerHTML = cardHtml(d);
        cardCache.set(d.id, el);
      }
      live.add(d.id);
      frag.appendChild(el);
    }
    for (const id of Array.from(cardCache.keys())) if (!live.has(id)) cardCache.delete(id);
    for (const [id, el] of cardCache) el.classList.toggle("current", id === cursor);
    list.innerHTML = "";
    list.appendChild(frag);
  }
  function renderEngineMoves() {
    const box = $("#engine-moves");
    const moves = D.engine.moves;
    const items = moves.map((m, i) => '<li><button data-engine-move="' + i + '">show</button> ' + esc((m.source_label || m.source) + " → " + (m.test_label || m.test)) + "</li>");
    box.innerHTML = '<details class="engine-moves"' + (moves.length ? " open" : "") + "><summary>Engine moves revealed after your move step (" + moves.length + ", engine " + esc(D.engine.version) + ")</summary><ul>" + items.join("") + "</ul></details>";
  }
  function renderCold(mid) {
    const items = S.coldMoves.map((m, i) => '<li>' + esc(blockOf("source", m.source).n + " → " + blockOf("test", m.test).n) + ' <button data-cold-remove="' + i + '">remove</button></li>');
    mid.innerHTML = '<h2>Step 1 of 2: moves, decided cold</h2><div class="cold-help"><p>Read both documents and mark every clause that <strong>moved</strong>: its parents do not correspond, or it jumped across its siblings. Mark only the topmost block of a moved subtree (a moved section on its heading).</p><ol><li>Click the block in the source, then where it went in the test.</li><li>Press <em>Mark move</em>.</li><li>When you have found them all, press <em>Finish move step</em>.</li></ol><p>The draft\'s links and the engine\'s moves stay hidden until you finish this step.</p></div><h3>Your moves (' + S.coldMoves.length + ')</h3><ul class="coldlist" id="coldlist">' + items.join("") + "</ul>";
  }
  function renderTools() {
    const t = $("#tools");
    if (S.step === "moves") {
      t.innerHTML = '<button id="mark-move">Mark move</button><button id="clear-selection">Clear selection</button><button id="finish-moves" class="primary">Finish move step</button><button id="reset">Start over</button>';
    } else {
      t.innerHTML = '<button id="confirm-exact" title="confirm every undecided draft link you have not changed whose two blocks have the same label and the same text; recorded in the export">Confirm unchanged exact matches</button><button id="undo" title="undo the last change (u)">Undo</button><button id="keys-help" title="keyboard: ?">Keys</button><button id="link-selected" title="1:1 link, 1:n split, n:1 merge">Link selected</button><button id="link-move">Link as move</button><button id="unlink-selected">Mark selected inserted/deleted</button><button id="clear-selection">Clear selection</button><button id="export" class="primary">Export decisions</button><button id="reset">Start over</button>';
    }
  }
  function paintBlocks() {
    const cold = { source: new Set(S.coldMoves.map((m) => m.source)), test: new Set(S.coldMoves.map((m) => m.test)) };
    for (const side of SIDES) for (const b of blocks[side]) {
      const el = document.getElementById(b.n);
      let cls = "blk k-" + b.k;
      if (S.step === "moves") {
        if (cold[side].has(b.a)) cls += " cold-marked";
      } else {
        const d = owner[side][b.a];
        if (d.what === "deleted") cls += " st-del";
        else if (d.what === "inserted") cls += " st-ins";
        else if (d.what === "correspondence" && d.move) cls += " st-move";
        if (!d.decided) cls += " undecided";
      }
      if (sel[side].has(b.a)) cls += " sel";
      if (el.className !== cls) el.className = cls;
    }
  }
  function renderStatus() {
    $("#step").textContent = S.step === "moves" ? "step 1 · moves (cold)" : "step 2 · rows";
    $("#main").classList.toggle("cold", S.step === "moves");
    if (S.step === "moves") { $("#progress").textContent = S.coldMoves.length + " move(s) marked"; return; }
    const done = S.decisions.filter((d) => d.decided).length;
    const bulk = S.bulk.reduce((n, b) => n + b.rows.length, 0);
    $("#progress").textContent = done + " / " + S.decisions.length + " decided" + (bulk ? " (" + bulk + " by bulk confirm)" : "");
    const c = $("#count"); if (c) c.textContent = "(" + S.decisions.length + ")";
  }
  function refresh(full) {
    if (full) { cardCache.clear(); $("#mid").innerHTML = ""; renderTools(); }
    renderCards(); paintBlocks(); renderStatus(); save();
  }

  // ---------- actions ----------
  function clearSel() { sel.source.clear(); sel.test.clear(); }
  function selected() { return { source: blocks.source.filter((b) => sel.source.has(b.a)).map((b) => b.a), test: blocks.test.filter((b) => sel.test.has(b.a)).map((b) => b.a) }; }
  function markMove() {
    const s = selected();
    if (s.source.length !== 1 || s.test.length !== 1) { notice("Select exactly one source block and one test block, then Mark move."); return; }
    checkpoint();
    S.coldMoves = S.coldMoves.filter((m) => m.source !== s.source[0] && m.test !== s.test[0]);
    S.coldMoves.push({ source: s.source[0], test: s.test[0] });
    S.coldMoves.sort((a, b) => pos.source[a.source] - pos.source[b.source]);
    clearSel(); notice(""); refresh(false);
  }
  function finishMoves() {
    checkpoint();
    for (const m of S.coldMoves) relink([m.source], [m.test], { move: true });
    S.step = "review"; clearSel(); notice(""); refresh(true);
  }
  function onCard(d, act) {
    setCursor(d.id);
    if (act === "confirm" || act === "move" || act === "unlink") checkpoint();
    if (act === "confirm") { d.decided = true; }
    else if (act === "move") { d.move = !d.move; d.decided = true; }
    else if (act === "unlink") {
      const made = relink(d.source.slice(), d.test.slice(), { unlink: true });
      refresh(false); if (made.length) setCursor(made[0].id); return;
    }
    else if (act === "partner") {
      const side = d.source.length ? "test" : "source";
      const anchor = d.source.length ? d.source[0] : d.test[0];
      pick = { side: side, anchorSide: side === "test" ? "source" : "test", anchor: anchor, move: d.what === "correspondence" && d.move, note: d.note };
      notice("Click the new " + side + " partner of " + blockOf(pick.anchorSide, anchor).n + " in the " + side + " document (Esc cancels).");
      return;
    } else if (act === "select") {
      clearSel(); for (const side of SIDES) for (const a of d[side]) sel[side].add(a);
      notice("Selected " + names("source", d.source) + " / " + names("test", d.test) + ": add or remove blocks, then Link selected.");
    }
    refresh(false);
  }
  function onBlock(side, a) {
    if (pick) {
      if (side !== pick.side) { notice("Pick a block in the " + pick.side + " document."); return; }
      const src = pick.side === "test" ? [pick.anchor] : [a], tst = pick.side === "test" ? [a] : [pick.anchor];
      checkpoint();
      const made = relink(src, tst, { move: pick.move, note: pick.note }); pick = null; notice(""); refresh(false);
      if (made.length) setCursor(made[0].id);
      return;
    }
    if (sel[side].has(a)) sel[side].delete(a); else sel[side].add(a);
    if (S.step === "review") {
      const d = owner[side][a]; const el = d && cardCache.get(d.id);
      document.querySelectorAll(".card.active").forEach((c) => c.classList.remove("active"));
      if (el) { el.classList.add("active"); el.scrollIntoView({ block: "nearest" }); }
    }
    paintBlocks();
  }
  function linkSelected(move) {
    const s = selected();
    if (!s.source.length && !s.test.length) { notice("Select blocks first (click them in the documents)."); return; }
    if (!s.source.length || !s.test.length) { notice("Select blocks on both sides to link them; use Mark selected inserted/deleted otherwise."); return; }
    if (move && (s.source.length !== 1 || s.test.length !== 1)) { notice("A move links one source block to one test block."); return; }
    checkpoint();
    relink(s.source, s.test, { move: move }); clearSel(); notice(""); refresh(false);
  }
  function unlinkSelected() {
    const s = selected();
    if (!s.source.length && !s.test.length) { notice("Select blocks first (click them in the documents)."); return; }
    checkpoint();
    relink(s.source, s.test, { unlink: true }); clearSel(); notice(""); refresh(false);
  }

  // @include review-keys.js

  // ---------- export: the digest makes a hand edit detectable ----------
  function canon(v) {
    if (Array.isArray(v)) return "[" + v.map(canon).join(",") + "]";
    if (v && typeof v === "object") return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canon(v[k])).join(",") + "}";
    return JSON.stringify(v);
  }
  function sha256(text) {
    const K = [0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2];
    const bytes = new TextEncoder().encode(text);
    const len = bytes.length, total = ((len + 9 + 63) >> 6) << 6;
    const m = new Uint8Array(total); m.set(bytes); m[len] = 0x80;
    const bits = len * 8; const dv = new DataView(m.buffer);
    dv.setUint32(total - 8, Math.floor(bits / 0x100000000)); dv.setUint32(total - 4, bits >>> 0);
    const H = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    const w = new Uint32Array(64); const r = (x, n) => (x >>> n) | (x << (32 - n));
    for (let o = 0; o < total; o += 64) {
      for (let i = 0; i < 16; i++) w[i] = dv.getUint32(o + i * 4);
      for (let i = 16; i < 64; i++) { const s0 = r(w[i - 15], 7) ^ r(w[i - 15], 18) ^ (w[i - 15] >>> 3), s1 = r(w[i - 2], 17) ^ r(w[i - 2], 19) ^ (w[i - 2] >>> 10); w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0; }
      let [a, b, c, d, e, f, g, h] = H;
      for (let i = 0; i < 64; i++) {
        const t1 = (h + (r(e, 6) ^ r(e, 11) ^ r(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
        const t2 = ((r(a, 2) ^ r(a, 13) ^ r(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        h = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      H[0] = (H[0] + a) >>> 0; H[1] = (H[1] + b) >>> 0; H[2] = (H[2] + c) >>> 0; H[3] = (H[3] + d) >>> 0;
      H[4] = (H[4] + e) >>> 0; H[5] = (H[5] + f) >>> 0; H[6] = (H[6] + g) >>> 0; H[7] = (H[7] + h) >>> 0;
    }
    return H.map((x) => x.toString(16).padStart(8, "0")).join("");
  }
  function exportPayload() {
    const decisions = sortedDecisions().map((d) => ({
      what: d.what, source: d.source.slice().sort((a, b) => pos.source[a] - pos.source[b]), test: d.test.slice().sort((a, b) => pos.test[a] - pos.test[b]),
      move: d.what === "correspondence" && !!d.move, note: d.note || null, reason: d.what === "unscored" ? d.reason : null, decided: !!d.decided,
    }));
    const payload = {
      format: FORMAT, pair: D.pair, draft: D.draft,
      documents: { source: { file: D.documents.source.file, sha256: D.documents.source.sha256 }, test: { file: D.documents.test.file, sha256: D.documents.test.sha256 } },
      cold_moves: S.coldMoves.map((m) => ({ source: m.source, test: m.test })),
      decisions: decisions,
      bulk_actions: S.bulk.map((b) => ({ action: b.action, rows: b.rows.map((r) => ({ source: r.source, test: r.test })) })),
    };
    payload.digest = sha256(canon(payload));
    return JSON.stringify(payload, null, 2) + "\n";
  }
  function exportDecisions() {
    const undecided = S.decisions.filter((d) => !d.decided).length;
    const text = exportPayload();
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    a.download = "decisions-" + D.pair + ".json";
    document.body.appendChild(a); a.click(); a.remove();
    notice(undecided ? "Exported with " + undecided + " undecided row(s): `label compile` refuses it until every row is decided." : "Exported " + a.download + ". Compile it with: alignbench label compile " + D.pair + " --from " + a.download + " --as-reviewer human:YOU");
  }

  // ---------- wiring ----------
  document.addEventListener("click", (ev) => {
    const t = ev.target;
    const blk = t.closest(".blk");
    if (blk) { onBlock(blk.dataset.side, blk.dataset.a); return; }
    const btn = t.closest("button");
    if (!btn) return;
    const card = btn.closest(".card");
    if (card && btn.dataset.act) { const d = S.decisions.find((x) => x.id === card.dataset.id); if (d) onCard(d, btn.dataset.act); return; }
    if (btn.dataset.coldRemove !== undefined) { checkpoint(); S.coldMoves.splice(Number(btn.dataset.coldRemove), 1); refresh(false); return; }
    if (btn.dataset.engineMove !== undefined) {
      const m = D.engine.moves[Number(btn.dataset.engineMove)];
      clearSel(); if (m.source_block) sel.source.add(m.source_block); if (m.test_block) sel.test.add(m.test_block);
      paintBlocks();
      for (const [side, a] of [["source", m.source_block], ["test", m.test_block]]) if (a) document.getElementById(blockOf(side, a).n).scrollIntoView({ block: "center" });
      return;
    }
    const actions = {
      "mark-move": markMove, "finish-moves": finishMoves, "clear-selection": () => { clearSel(); pick = null; notice(""); paintBlocks(); },
      "confirm-exact": confirmExact, undo: undo, "keys-help": toggleKeys,
      "link-selected": () => linkSelected(false), "link-move": () => linkSelected(true), "unlink-selected": unlinkSelected, export: exportDecisions,
      reset: () => { if (window.confirm("Discard every decision on this page and start over?")) { checkpoint(); S = fresh(); reindex(); clearSel(); refresh(true); } },
    };
    if (actions[btn.id]) actions[btn.id]();
  });
  document.addEventListener("change", (ev) => {
    const t = ev.target;
    if (!t.classList.contains("note")) return;
    const d = S.decisions.find((x) => x.id === t.closest(".card").dataset.id);
    if (d) { checkpoint(); d.note = t.value.trim().replace(/\s+/g, " ") || null; d.decided = true; refresh(false); }
  });
  document.addEventListener("keydown", onKey);

  S = load();
  reindex();
  renderDocs();
  refresh(true);
  window.alignbenchReview = { exportPayload: exportPayload, state: () => S, cursor: () => cursor };
  document.body.dataset.ready = "1";
})();
