// The replay page: the frames (where everybody stood at each event of the record, rebuilt by
// the server with the rules engine) are read once; the buttons and the keys step through them
// event by event or post by post, moving the tokens on the pitch.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var SQUARE = 30;
  var COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  var root = document.getElementById("replay");
  if (!root) { return; }
  var frames = [], spots = [], tokens = {}, at = 0;

  function el(testid) { return root.querySelector('[data-testid="' + testid + '"]'); }
  function xy(square) {
    return [COLUMNS.indexOf(square[0]) * SQUARE, (parseInt(square.slice(1), 10) - 1) * SQUARE];
  }
  function fill(format, values) {
    return format.replace(/\{(\w+)\}/g, function (all, key) { return values[key]; });
  }
  function svg(name, attrs, parent) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    parent.appendChild(node);
    return node;
  }

  function token(pid, info, parent) {
    var g = svg("g", { "data-player": pid, "data-testid": "token-" + pid, visibility: "hidden" }, parent);
    svg("title", {}, g).textContent = info.label;
    // the away team's players are rounded squares, the home team's discs: more than a colour
    if (pid.charAt(0) === "a") {
      svg("rect", { "class": "body", x: 3, y: 3, width: 24, height: 24, rx: 5 }, g);
    } else { svg("circle", { "class": "body", cx: 15, cy: 15, r: 12 }, g); }
    svg("text", { "class": "num", x: 15, y: 19 }, g).textContent = String(info.number);
    svg("text", { "class": "state-mark", x: 3, y: 28 }, g);
    svg("circle", { "class": "ball", cx: 25, cy: 25, r: 4.5, visibility: "hidden" }, g);
    return g;
  }

  // Each frame holds only the players that changed: the whole pitch of every frame is built
  // once here.
  function build(doc) {
    var now = {};
    frames = doc.frames;
    spots = frames.map(function (frame) {
      now = Object.assign({}, now);
      Object.keys(frame.changes).forEach(function (pid) {
        if (frame.changes[pid] === null) { delete now[pid]; } else { now[pid] = frame.changes[pid]; }
      });
      return now;
    });
    var layer = root.querySelector(".tokens");
    Object.keys(doc.players).forEach(function (pid) { tokens[pid] = token(pid, doc.players[pid], layer); });
  }

  function show(i) {
    if (!frames.length) { el("replay-text").textContent = root.dataset.empty; return; }
    at = Math.max(0, Math.min(frames.length - 1, i));
    var frame = frames[at], here = spots[at];
    Object.keys(tokens).forEach(function (pid) {
      var g = tokens[pid], spot = here[pid];
      if (!spot) { g.setAttribute("visibility", "hidden"); g.removeAttribute("data-square"); return; }
      var p = xy(spot[0]);
      g.setAttribute("visibility", "visible");
      g.setAttribute("transform", "translate(" + p[0] + " " + p[1] + ")");
      g.setAttribute("data-square", spot[0]);
      g.setAttribute("class", "token team-" + spot[3] + " state-" + spot[1]);
      g.querySelector(".state-mark").textContent = spot[1] === "prone" ? "P" : spot[1] === "stunned" ? "S" : "";
      g.querySelector(".ball").setAttribute("visibility", spot[2] ? "visible" : "hidden");
    });
    var ball = el("replay-ball");
    if (frame.ball) {
      var b = xy(frame.ball);
      ball.setAttribute("cx", b[0] + SQUARE / 2); ball.setAttribute("cy", b[1] + SQUARE / 2);
      ball.setAttribute("visibility", "visible");
    } else { ball.setAttribute("visibility", "hidden"); }
    el("replay-score-home").textContent = frame.score[0];
    el("replay-score-away").textContent = frame.score[1];
    var active = frame.active === "home" ? 0 : 1;
    el("replay-when").textContent = fill(root.dataset.whenFormat, {
      half: frame.half, turn: frame.turn[active], team: active ? root.dataset.away : root.dataset.home
    });
    el("replay-position").textContent = fill(root.dataset.eventFormat, { n: at + 1, total: frames.length });
    var link = el("replay-post");
    // an event outside any post (the match's creation) links nowhere: no empty link in the tab order
    link.hidden = !frame.post;
    if (frame.post) {
      link.textContent = fill(root.dataset.postFormat, { n: frame.post });
      link.href = root.dataset.match + "?before=" + (frame.post + 1) + "#post-" + frame.post;
    } else {
      link.textContent = "";
      link.removeAttribute("href");
    }
    el("replay-text").textContent = frame.text;
    history.replaceState(null, "", "#event-" + frame.event);
  }

  // A post's steps end at its last frame: stepping by posts shows each post's outcome.
  function lastOfPost(i) {
    while (i + 1 < frames.length && frames[i + 1].post === frames[i].post) { i++; }
    return i;
  }
  function firstOfPost(i) {
    while (i > 0 && frames[i - 1].post === frames[i].post) { i--; }
    return i;
  }
  var steps = {
    first: function () { return 0; },
    last: function () { return frames.length - 1; },
    next: function () { return at + 1; },
    prev: function () { return at - 1; },
    "next-post": function () {
      var end = lastOfPost(at);
      return end === at ? lastOfPost(Math.min(at + 1, frames.length - 1)) : end;
    },
    "prev-post": function () { var start = firstOfPost(at); return start > 0 ? start - 1 : 0; }
  };
  var KEYS = { ArrowRight: "next", ArrowLeft: "prev", ArrowDown: "next-post", ArrowUp: "prev-post", Home: "first", End: "last" };

  root.addEventListener("click", function (e) {
    var b = e.target.closest("[data-step]");
    if (b) { show(steps[b.dataset.step]()); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.target.closest && e.target.closest("input, textarea, select")) { return; }
    var step = KEYS[e.key];
    if (!step || e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (e.shiftKey && (step === "next" || step === "prev")) { step += "-post"; }
    e.preventDefault();
    show(steps[step]());
  });

  fetch(root.dataset.frames, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then(function (r) { return r.json(); })
    .then(function (doc) {
      build(doc);
      var wanted = /^#event-(\d+)$/.exec(location.hash);
      var start = wanted ? frames.findIndex(function (f) { return f.event === parseInt(wanted[1], 10); }) : 0;
      show(start < 0 ? 0 : start);
      root.classList.add("ready");
    });
})();
