// Countdowns to instant deadlines (issue 22): every <time data-countdown> of the page shows the time
// left before its flag, "2 d 03 h 12 min left", then "time is up".
//
// The starting point is the server's data-remaining-seconds, not the datetime attribute against this
// machine's clock: a reader's clock may be minutes wrong, the server's count is the one the flag obeys.
// Only the elapsed time is measured here (Date.now() differences, which keep running while a laptop
// sleeps, where performance.now() may stop). The words come from the element's data- attributes
// (data-long, data-short, data-up, with %(name)s placeholders as the server's catalogue writes them):
// this file holds no language. Without it the server's text stays, true as of the page's computation.
(function () {
  "use strict";
  var loaded = Date.now();

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function fill(pattern, values) {
    return pattern.replace(/%\((\w+)\)s/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? values[name] : whole;
    });
  }

  // The text for `left` seconds, as corr.web.describe.countdown_text words it.
  function words(el, left) {
    if (left <= 0) return el.dataset.up;
    var days = Math.floor(left / 86400), hours = Math.floor(left % 86400 / 3600);
    var minutes = Math.floor(left % 3600 / 60), seconds = left % 60;
    if (days > 0) return fill(el.dataset.long, {days: String(days), hours: pad(hours), minutes: pad(minutes)});
    return fill(el.dataset.short, {hours: pad(hours), minutes: pad(minutes), seconds: pad(seconds)});
  }

  // Shows every countdown; true while one of them still runs.
  function tick() {
    var elapsed = Math.floor((Date.now() - loaded) / 1000), running = false;
    document.querySelectorAll("time[data-countdown]").forEach(function (el) {
      var start = parseInt(el.dataset.remainingSeconds, 10);
      if (isNaN(start)) return;
      var left = Math.max(0, start - elapsed);
      var out = el.querySelector(".countdown") || el;
      var text = words(el, left);
      if (out.textContent !== text) out.textContent = text;
      if (left <= 0) el.classList.add("time-up"); else running = true;
    });
    // Next at the next whole second since loading, so the seconds do not drift with the timer's lateness.
    if (running) setTimeout(tick, 1000 - (Date.now() - loaded) % 1000);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", tick);
  else tick();
})();
