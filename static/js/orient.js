// On a narrow screen the pitch stands upright: 15 squares across and 26 down, each drawn at
// its full size (big enough for a thumb), the page scrolling along the pitch. The server draws
// it lying down; here its viewBox turns and the stylesheet swaps x and y of its drawing (its
// texts are swapped back, to read the right way). A pitch the page swaps in is turned at once,
// before it is painted.
(function () {
  "use strict";
  var narrow = window.matchMedia("(max-width: 700px)");
  var LYING = "-18 -18 816 486";
  var UPRIGHT = "-18 -18 486 816";

  function orient() {
    var upright = narrow.matches;
    document.querySelectorAll("svg.pitch, svg.overlay").forEach(function (svg) {
      var box = upright ? UPRIGHT : LYING;
      if (svg.getAttribute("viewBox") !== box) { svg.setAttribute("viewBox", box); }
      svg.classList.toggle("upright", upright);
    });
  }

  new MutationObserver(orient).observe(document.body, { childList: true, subtree: true });
  narrow.addEventListener("change", orient);
  orient();
})();
