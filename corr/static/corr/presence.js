// The game page's heartbeat (issue 38, corr.notify.presence): while the page is visible the player is not
// e-mailed about this game's moves. Every third of the presence's lifetime; "left" when the page goes.
(() => {
  const me = document.currentScript;
  const url = me.dataset.url, token = me.dataset.csrf, every = Number(me.dataset.seconds) * 1000 / 3;
  const send = (left) => {
    const body = new URLSearchParams({csrfmiddlewaretoken: token});
    if (left) body.set("left", "1");
    if (left && navigator.sendBeacon) { navigator.sendBeacon(url, body); return; }
    fetch(url, {method: "POST", body, credentials: "same-origin", headers: {"X-CSRFToken": token}}).catch(() => {});
  };
  const beat = () => { if (document.visibilityState === "visible") send(false); };
  beat();
  setInterval(beat, every);
  document.addEventListener("visibilitychange", () => send(document.visibilityState !== "visible"));
  window.addEventListener("pagehide", () => send(true));
})();
