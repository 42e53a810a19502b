// The time banks on the match page count down every second without a reload. A running bank
// carries when it runs out (data-ends) and what it held when the page was drawn
// (data-seconds): while its coach is away it ends later than that, and stands until then. The
// panel is redrawn when the match changes, so this reads the elements anew at every tick.
(function () {
  function clock(total) {
    var hours = Math.floor(total / 3600);
    var minutes = Math.floor((total % 3600) / 60);
    var seconds = total % 60;
    return hours + ":" + (minutes < 10 ? "0" : "") + minutes + ":" + (seconds < 10 ? "0" : "") + seconds;
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll(".bank-left[data-ends]").forEach(function (bank) {
      var untilEnd = Math.floor((Date.parse(bank.dataset.ends) - now) / 1000);
      var left = Math.max(0, Math.min(parseInt(bank.dataset.seconds, 10), untilEnd));
      bank.textContent = clock(left);
    });
  }

  tick();
  setInterval(tick, 1000);
})();
