// The match page's pitch: fills the plan form's hidden inputs from clicks (or Enter on a
// focused square or token) and asks the server for the preview. The server decides the rest.
(function () {
  "use strict";
  var HOSTILE = ["block", "blitz", "foul"];
  var FRIENDLY = ["pass", "hand_off"];
  var COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  var saved = null;

  function form() { return document.getElementById("plan"); }
  function get(name) { var f = form(); return f && f.elements[name] ? f.elements[name].value : ""; }
  function set(name, value) { form().elements[name].value = value; }
  function list(name) { var v = get(name); return v ? v.split(",") : []; }
  function changed() { htmx.trigger(form(), "plan-changed"); }
  function token(selector) { return document.querySelector("#pitch .token" + selector); }

  function placements() {
    var out = {};
    list("placements").forEach(function (item) { var p = item.split(":"); out[p[0]] = p[1]; });
    return out;
  }
  function savePlacements(map) {
    set("placements", Object.keys(map).map(function (id) { return id + ":" + map[id]; }).join(","));
  }

  function choose(player) {
    set("player", player); set("action", ""); set("path", ""); set("target", ""); changed();
  }

  function setupClick(square) {
    var map = placements();
    var here = Object.keys(map).filter(function (id) { return map[id] === square; })[0];
    var picked = get("picked");
    if (picked) {
      if (here && here !== picked) { delete map[here]; }
      map[picked] = square; set("picked", "");
    } else if (here) {
      set("picked", here);
    } else { return; }
    savePlacements(map); changed();
  }

  function square(sq, tok) {
    var f = form();
    var mode = f ? f.dataset.mode : "";
    var push = document.querySelector('[data-choice-square="' + sq + '"]');
    if (push) { push.click(); return; }
    if (mode === "kick") { set("target", sq); changed(); return; }
    if (mode === "setup") { setupClick(sq); return; }
    if (mode !== "play" || !get("player")) { return; }
    var action = get("action") || "move";
    var mover = token('[data-player="' + get("player") + '"]');
    tok = tok || token('[data-square="' + sq + '"]');
    if (tok) {
      var foe = mover && tok.dataset.team !== mover.dataset.team;
      if ((foe && HOSTILE.indexOf(action) >= 0) || (!foe && FRIENDLY.indexOf(action) >= 0)) {
        set("target", tok.dataset.player); changed();
      }
      return;
    }
    if (action === "block") { return; }
    var path = list("path");
    // A pass's path is its move, square by square: a square out of a step's reach is where
    // the ball is thrown (clicking it again takes the throw back).
    var from = path.length ? path[path.length - 1] : (mover && mover.dataset.square);
    if (action === "pass" && from && from !== sq && !adjacent(from, sq)) {
      set("target", get("target") === sq ? "" : sq); changed(); return;
    }
    if (path.length && path[path.length - 1] === sq) { path.pop(); } else { path.push(sq); }
    set("path", path.join(",")); changed();
  }

  function adjacent(a, b) {
    var dc = COLUMNS.indexOf(a[0]) - COLUMNS.indexOf(b[0]);
    var dr = parseInt(a.slice(1), 10) - parseInt(b.slice(1), 10);
    return Math.abs(dc) <= 1 && Math.abs(dr) <= 1;
  }

  function activate(el) {
    var f = form();
    if (el.classList.contains("token") && f && f.dataset.mode === "play" &&
        el.dataset.actions && el.dataset.player !== get("player")) {
      choose(el.dataset.player);
    } else {
      square(el.dataset.square, el.classList.contains("token") ? el : null);
    }
  }

  document.addEventListener("click", function (e) {
    var el = e.target.closest("#pitch .token, #pitch .cell");
    if (el) { activate(el); return; }
    var b = e.target.closest("[data-plan-action]");
    if (b) { set("action", b.dataset.planAction); set("path", ""); set("target", ""); changed(); return; }
    b = e.target.closest("[data-pick]");
    if (b) { set("picked", b.dataset.pick); changed(); return; }
    b = e.target.closest("[data-unplace]");
    if (b) {
      var map = placements(); delete map[b.dataset.unplace]; savePlacements(map);
      set("picked", ""); changed();
    }
  });

  // Keyboard: Enter or Space acts on the focused token or square; the arrows walk the squares.
  document.addEventListener("keydown", function (e) {
    var el = e.target.closest && e.target.closest("#pitch .token, #pitch .cell");
    if (!el) { return; }
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); activate(el); return; }
    var moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    var m = moves[e.key];
    if (!m) { return; }
    // an upright pitch (a phone's, see orient.js) has its columns down and its rows across
    if (el.closest("svg").classList.contains("upright")) { m = [m[1], m[0]]; }
    var sq = el.dataset.square;
    var col = COLUMNS.indexOf(sq[0]) + m[0], row = parseInt(sq.slice(1), 10) + m[1];
    if (col < 0 || col > 25 || row < 1 || row > 15) { return; }
    var next = document.querySelector('#pitch .cell[data-square="' + COLUMNS[col] + row + '"]');
    if (next) { e.preventDefault(); next.focus(); }
  });

  // The typed notation and text are kept by polls (hx-preserve); once posted they go.
  document.addEventListener("htmx:afterRequest", function (e) {
    var cfg = e.detail.requestConfig;
    if (!e.detail.successful || !cfg || cfg.verb !== "post" || !/\/declare\/$/.test(cfg.path)) { return; }
    ["id_notation", "id_plan_text"].forEach(function (id) {
      var input = document.getElementById(id);
      if (input) { input.value = ""; }
    });
  });

  // Earlier posts arrive above the thread: the reader's focus goes to the first of them.
  var earlier = false;
  document.addEventListener("htmx:beforeSwap", function (e) {
    earlier = e.detail.target.classList.contains("earlier");
  });
  document.addEventListener("htmx:afterSettle", function () {
    var first = earlier && document.querySelector("#thread article");
    earlier = false;
    if (!first) { return; }
    // a turn cut in two by the page break is one group again
    var turns = document.querySelectorAll("#thread > .turn");
    for (var i = turns.length - 1; i > 0; i--) {
      var a = turns[i - 1], b = turns[i];
      if (a.querySelector("h3").textContent === b.querySelector("h3").textContent) {
        b.querySelectorAll(":scope > article").forEach(function (post) { a.appendChild(post); });
        b.remove();
      }
    }
    first.setAttribute("tabindex", "-1"); first.focus();
  });

  // A poll that brings news keeps the plan being built (the server re-checks it). A poll with
  // no news (204) swaps nothing and settles nothing: a plan saved then would be put back at the
  // next settle of another swap, over the squares clicked since.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var f = form();
    if (!f || !e.detail.shouldSwap || e.detail.target.id !== "live" ||
        e.detail.requestConfig.verb !== "get") { return; }
    saved = { mode: f.dataset.mode, player: get("player"), action: get("action"), path: get("path"),
              target: get("target"), placements: get("placements"), picked: get("picked") };
  });
  document.addEventListener("htmx:afterSettle", function () {
    var f = form(), s = saved;
    saved = null;
    if (!f || !s || f.dataset.mode !== s.mode || !(s.player || s.placements || s.target)) { return; }
    ["player", "action", "path", "target", "placements", "picked"].forEach(function (k) { set(k, s[k]); });
    changed();
  });
})();
