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

  // Earlier posts arrive above the thread: the reader's focus goes to the first of them. The
  // mark is only set here and cleared once used: another part's swap (the watching list, a
  // poll) may come between this swap and its settle.
  var earlier = false;
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.target.classList.contains("earlier")) { earlier = true; }
  });
  document.addEventListener("htmx:afterSettle", function () {
    var first = earlier && document.querySelector("#thread article");
    if (!first) { return; }
    earlier = false;
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
    if (!f || !s || f.dataset.mode !== s.mode || !(s.player || s.placements || s.target || s.picked)) { return; }
    ["player", "action", "path", "target", "placements", "picked"].forEach(function (k) { set(k, s[k]); });
    changed();
  });
  // ---- Keyboard-first play and what a screen reader hears (issue 36) --------------------
  // One element of the pitch is in the tab order: the selected player, else the first of
  // one's own players that can act, else the square focused last (A1 at first). Keys on the
  // pitch: the arrows walk the squares, N (Shift+N back) cycles one's players that can act,
  // Enter chooses, P posts the plan, E goes to the End turn button. Focus survives every
  // htmx swap, and news is read out once by the page's announcer.
  function pitchEntry() {
    return token(".selected") || token(".mine.can-act") ||
      document.querySelector('#pitch .cell[tabindex="0"]') || document.querySelector("#pitch .cell");
  }

  function keepOneTabStop() {
    var entry = pitchEntry();
    if (!entry) { return; }
    document.querySelectorAll('#pitch [tabindex="0"]').forEach(function (el) {
      if (el !== entry) { el.setAttribute("tabindex", "-1"); }
    });
    entry.setAttribute("tabindex", "0");
  }

  function focusOnPitch(el) {
    if (!el) { return; }
    keepOneTabStop();
    el.focus();
  }

  function cycleActingPlayers(step) {
    var players = Array.prototype.slice.call(document.querySelectorAll("#pitch .token.mine.can-act"));
    if (!players.length) { return; }
    var at = players.indexOf(document.activeElement);
    focusOnPitch(players[(at + step + players.length) % players.length]);
  }

  // P pressed while the plan's preview is on its way posts the plan it brings.
  var previewInFlight = false, postAfterPreview = false;
  function isPreview(e) {
    var cfg = e.detail.requestConfig;
    return cfg && /\/preview\/$/.test(cfg.path);
  }
  function postThePlan() {
    if (previewInFlight) { postAfterPreview = true; return; }
    clickIfEnabled('[data-testid="post-declaration"]');
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (isPreview(e)) { previewInFlight = true; }
  });
  function previewLanded(e) {
    if (!isPreview(e) || !previewInFlight) { return; }
    previewInFlight = false;
    if (postAfterPreview) { postAfterPreview = false; clickIfEnabled('[data-testid="post-declaration"]'); }
  }
  document.addEventListener("htmx:afterSettle", previewLanded);
  document.addEventListener("htmx:afterRequest", function (e) {
    if (!e.detail.successful) { previewLanded(e); }
  });

  function clickIfEnabled(selector) {
    var button = document.querySelector(selector);
    if (button && !button.disabled) { button.click(); return true; }
    return false;
  }

  document.addEventListener("keydown", function (e) {
    var onPitch = e.target.closest && e.target.closest("#pitch");
    if (!onPitch || e.ctrlKey || e.altKey || e.metaKey) { return; }
    var key = e.key.toLowerCase();
    if (key === "n") { e.preventDefault(); cycleActingPlayers(e.shiftKey ? -1 : 1); }
    else if (key === "p") { e.preventDefault(); postThePlan(); }
    else if (key === "e") {
      var end = document.querySelector('[data-testid^="end_turn-"]');
      if (end) { e.preventDefault(); end.focus(); }
    }
  });

  // Enter in the typed notation posts it as typed, by htmx: its error is read out from the
  // page's live flash while focus stays in the field to correct it.
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" || !e.target || e.target.id !== "id_notation") { return; }
    e.preventDefault();
    clickIfEnabled('[data-testid="post-typed"]');
  });

  // The skip links: to the pitch's entry, to the action panel, to the typed declaration.
  document.addEventListener("click", function (e) {
    var link = e.target.closest("[data-skip]");
    if (!link) { return; }
    var where = link.dataset.skip, target = null;
    if (where === "pitch") { target = pitchEntry(); }
    else if (where === "panel") { target = document.querySelector("#live aside.panel"); }
    else if (where === "typed") {
      var typed = document.getElementById("typed");
      if (typed) { typed.open = true; }
      target = document.getElementById("id_notation");
    }
    if (!target) { return; }
    e.preventDefault();
    if (where === "pitch") { focusOnPitch(target); } else { target.focus(); }
  });

  // A focused square remembers itself as the pitch's entry once focus leaves it.
  document.addEventListener("focusin", function (e) {
    var cell = e.target.closest && e.target.closest("#pitch .cell");
    if (!cell) { return; }
    document.querySelectorAll('#pitch .cell[tabindex="0"]').forEach(function (el) {
      if (el !== cell) { el.setAttribute("tabindex", "-1"); }
    });
    cell.setAttribute("tabindex", "0");
  });

  // Where the person was, said so that the same thing can be found in the new content: a
  // player by its id, a square by its name (or the player standing on it now), anything
  // else by its test id or id.
  var focusBeforeSwap = null;
  function describe(el) {
    if (!el || el === document.body) { return null; }
    if (el.dataset && el.dataset.player && el.closest("#pitch")) { return { player: el.dataset.player }; }
    if (el.dataset && el.dataset.square && el.closest("#pitch")) { return { square: el.dataset.square }; }
    if (el.dataset && el.dataset.testid) { return { testid: el.dataset.testid }; }
    if (el.id) { return { id: el.id }; }
    return null;
  }
  function find(d) {
    if (d.player) { return token('[data-player="' + d.player + '"]'); }
    if (d.square) {
      return token('[data-square="' + d.square + '"]') ||
        document.querySelector('#pitch .cell[data-square="' + d.square + '"]');
    }
    if (d.testid) { return document.querySelector('[data-testid="' + d.testid + '"]'); }
    return document.getElementById(d.id);
  }
  document.addEventListener("htmx:beforeSwap", function (e) {
    var active = document.activeElement;
    if (active && e.detail.target.contains(active)) { focusBeforeSwap = describe(active); }
  });
  document.addEventListener("htmx:afterSettle", function () {
    keepOneTabStop();
    nameSquaresByTheirOdds();
    nameBlockTargetsByTheirDice();
    announceNews();
    var d = focusBeforeSwap;
    focusBeforeSwap = null;
    var active = document.activeElement;
    var kept = active && active !== document.body && document.contains(active);
    // a square kept through the swap (hx-preserve) still yields to the player now on it
    if (!d || (kept && !(d.square && active.classList.contains("cell")))) { return; }
    // What was focused is gone (a button of a turn that ended, a posted plan's): the pitch's
    // entry after a post, else the action panel, which says what comes next.
    var again = find(d);
    if (kept && again === active) { return; }
    if (!again || again.disabled) {
      var posted = d.testid === "post-declaration" || d.testid === "post-typed";
      again = posted && token(".mine.can-act") ? pitchEntry() : document.getElementById("panel");
    }
    if (again && again.closest("#pitch")) { focusOnPitch(again); } else if (again) { again.focus(); }
  });

  // A square's name carries what the overlay draws on it: the step of the path, the chance
  // of getting there, the block dice.
  function nameSquaresByTheirOdds() {
    var said = {};
    document.querySelectorAll("#overlay .mark[data-mark]").forEach(function (m) {
      var words = [];
      ["step", "chance", "dice"].forEach(function (cls) {
        var t = m.querySelector("." + cls);
        if (t && t.textContent) { words.push(t.textContent); }
      });
      if (m.dataset.odds) { words.push(m.dataset.odds); }
      said[m.dataset.mark] = (said[m.dataset.mark] || []).concat(words);
    });
    document.querySelectorAll("#pitch .cell").forEach(function (cell) {
      var extra = said[cell.dataset.square];
      cell.setAttribute("aria-label", cell.dataset.square + (extra && extra.length ? ", " + extra.join(", ") : ""));
    });
  }

  // A block target's token says its block dice and who chooses them, as the overlay draws
  // them on its square; its own name is kept to come back to when it is no target.
  function nameBlockTargetsByTheirDice() {
    var dice = {};
    document.querySelectorAll("#overlay .mark-dice[data-dice-said]").forEach(function (m) {
      dice[m.dataset.mark] = m.dataset.diceSaid;
    });
    document.querySelectorAll("#pitch .token[data-square]").forEach(function (t) {
      if (!t.dataset.ownName) { t.dataset.ownName = t.getAttribute("aria-label") || ""; }
      var said = dice[t.dataset.square];
      t.setAttribute("aria-label", t.dataset.ownName + (said ? ", " + said : ""));
    });
  }

  // The announcer (a polite live region outside the swapped part) reads each new post once,
  // then a decision when one waits, then the plan's problem or its overall chance.
  var lastPost = null, lastDecision = null, lastPlan = null;
  function newestPost() {
    var posts = document.querySelectorAll("#thread article.post");
    var best = null;
    posts.forEach(function (p) {
      var n = parseInt(p.id.replace("post-", ""), 10);
      if (!best || n > best.n) { best = { n: n, el: p }; }
    });
    return best;
  }
  function announceNews() {
    var announcer = document.getElementById("announcer");
    if (!announcer) { return; }
    var said = [];
    var post = newestPost();
    if (post && lastPost !== null && post.n > lastPost) {
      document.querySelectorAll("#thread article.post").forEach(function (p) {
        if (parseInt(p.id.replace("post-", ""), 10) > lastPost) {
          var copy = p.cloneNode(true);
          copy.querySelectorAll("details, form, time").forEach(function (x) { x.remove(); });
          said.push(copy.textContent.replace(/\s+/g, " ").trim());
        }
      });
    }
    if (post) { lastPost = Math.max(post.n, lastPost || 0); }
    var decision = document.querySelector('[data-testid="decision"]');
    var decisionKey = decision ? decision.textContent.replace(/\s+/g, " ").trim() : null;
    if (decision && decisionKey !== lastDecision) { said.push(decision.querySelector("h2").textContent.trim()); }
    lastDecision = decisionKey;
    var problem = document.querySelector('#plan-panel [data-testid="problem"]');
    var overall = document.querySelector('#plan-panel [data-testid="overall"]');
    var plan = problem ? problem.textContent : overall ? overall.parentNode.textContent : null;
    plan = plan && plan.replace(/\s+/g, " ").trim();
    if (plan && plan !== lastPlan && !problem) { said.push(plan); }
    lastPlan = plan;
    if (said.length) { announcer.textContent = said.join(" "); }
  }

  function startAccessiblePitch() {
    keepOneTabStop();
    nameSquaresByTheirOdds();
    nameBlockTargetsByTheirDice();
    announceNews();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", startAccessiblePitch);
  } else { startAccessiblePitch(); }
})();
