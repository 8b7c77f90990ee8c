/* The live page of a game (templates/corr/_live.html; docs/live.md).
 *
 * The server's clock is the only clock: every payload (corr.live.state.live_payload) says what each
 * clock showed at the server's instant `server_ms`. Between pushes the running clock counts down here,
 * from that instant, on an estimate of the server's time: the browser's clock plus the offset between
 * the two, taken as the largest (server_ms - arrival) of the last pushes (the one that travelled
 * fastest), so neither a wrong browser clock nor the network's delay shifts the countdown.
 *
 * Speech (each clock switched on or off on this device, in localStorage): in a byo-yomi period the
 * seconds 15, 10, 5, 4, 3, 2, 1 (Go rules 12.16), to whoever switches the clock on; the warning that clock's
 * player is owed by their vision (draughts rules 1.7.9: 10 minutes before a control if totally blind, 5 if
 * visually impaired), and the fall of their opponent's flag; its own fallen flag. A player's own clock is
 * switched on by default when their profile sets a vision. The arbiter's view marks the warnings owed now.
 */
(function () {
  "use strict";

  var configNode = document.getElementById("live-config");
  var root = document.getElementById("live");
  if (!configNode || !root) return;
  var config = JSON.parse(configNode.textContent);
  var words = config.words;
  var SIDES = ["white", "black"];
  var CLOSE_FINAL = { 4401: true, 4403: true, 4404: true };
  var OFFSET_SAMPLES = 8;
  var TICK_MS = 100;
  var LAG_MS_MAX = 10000;  // corr.live.services.LAG_MS_MAX

  var state = null;       // the newest payload
  var samples = [];       // server_ms - Date.now() at each arrival
  var offsetMs = 0;       // estimate of server time - browser time
  var socket = null;
  var retries = 0;
  var connection = "connecting";
  var busy = false;       // a move being sent
  var movesSent = { white: 0, black: 0 };  // accepted here since the page was served
  var previous = { white: null, black: null };  // the last tick's speech figures, per clock

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }

  // --- the clocks ------------------------------------------------------------------------------

  function serverNow() {
    return Date.now() + offsetMs;
  }

  function newer(payload) {
    if (!state) return true;
    if (typeof payload.version === "number" && typeof state.version === "number" && payload.version !== state.version) {
      return payload.version > state.version;
    }
    return payload.server_ms >= state.server_ms;
  }

  /** Whether the game is under way: the newest payload says (a flag, a result, a reopening change it). */
  function ongoing() {
    return state && state.status ? state.status === "ongoing" : config.ongoing;
  }

  function accept(payload) {
    if (!payload || !payload.players || typeof payload.server_ms !== "number") return;
    samples.push(payload.server_ms - Date.now());
    if (samples.length > OFFSET_SAMPLES) samples.shift();
    offsetMs = Math.max.apply(null, samples);
    if (!newer(payload)) return;
    var before = state;
    state = payload;
    // Whatever made the change (this page, the other player, the arbiter, a flag the server found), the page
    // draws the game's state from the payload: the header, the status, the buttons, the result; and the
    // history, which it asks the server for again.
    if (before && before.version !== payload.version) refreshHistory();
    SIDES.forEach(function (side) {
      var was = before && before.players[side] && before.players[side].flag_fallen;
      if (state.players[side].flag_fallen && !was && before) {
        // The clock's own switch, and the opponent's when the opponent is owed it (1.7.9 "о падении флажка").
        var partner = other(side);
        announceTo([side].concat(vision(partner) ? [partner] : []), fill(words.say_flag, { side: words[side] }));
      }
      previous[side] = null;  // a push may move a clock by any amount: speak only what the countdown crosses
    });
    render();
  }

  /** Milliseconds left on ``side``'s clock now (the running one counted down since server_ms). */
  function remainingMs(side) {
    var player = state.players[side];
    var left = player.remaining_ms;
    if (state.running === side && !state.paused && !player.flag_fallen) {
      // Before the start instant nothing runs yet (the first mover's clock starts then, 003 12.5).
      var from = Math.max(state.server_ms, state.starts_at_ms || 0);
      left -= Math.max(0, serverNow() - from);
    }
    return Math.max(0, left);
  }

  function formatClock(ms) {
    ms = Math.max(0, Math.floor(ms));
    if (ms < 10000) return Math.floor(ms / 1000) + "." + Math.floor((ms % 1000) / 100);
    var seconds = Math.floor(ms / 1000);
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
    var mm = (h && m < 10 ? "0" : "") + m, ss = (s < 10 ? "0" : "") + s;
    return h ? h + ":" + mm + ":" + ss : mm + ":" + ss;
  }

  function clockNode(side) {
    return document.getElementById("clock-" + side);
  }

  function render() {
    if (!state) return;
    var ticking = false;
    SIDES.forEach(function (side) {
      var node = clockNode(side);
      var player = state.players[side];
      var running = state.running === side && !state.paused;
      var left = remainingMs(side);
      node.classList.toggle("running", running);
      node.classList.toggle("fallen", !!player.flag_fallen);
      node.querySelector(".live-flag").hidden = !player.flag_fallen;
      node.querySelector(".live-time").textContent = formatClock(left);
      node.querySelector(".live-detail").textContent = detail(side, left);
      node.dataset.remainingMs = String(left);
      if (running && left === 0) ticking = true;
    });
    root.classList.toggle("paused", !!state.paused);
    root.dataset.version = String(state.version);
    root.dataset.running = state.running || "";
    showStatus();
    var button = document.getElementById("move-made");
    if (button) button.disabled = busy || !ongoing() || state.running !== config.colour || !!state.paused;
    ["live-stop", "live-call"].forEach(function (id) {
      var stop = document.getElementById(id);
      if (stop) stop.disabled = !ongoing() || !!state.paused || !state.running;
    });
    showGame();
    showRuling();
    showOwed();
    if (ticking) askAgain();
  }

  /** The arbiter's box for a player's stop awaiting a ruling: what it is, and only the rulings it allows. */
  function showRuling() {
    var form = document.getElementById("live-ruling-form");
    if (!form) return;
    var stop = state.player_stop;
    form.hidden = !stop;
    if (!stop) return;
    var what = document.getElementById("ruling-what");
    var text = fill(words["stop_" + stop.kind] || stop.kind, { side: words[stop.player] || stop.player });
    if (what.textContent !== text) what.textContent = text;
    form.querySelectorAll("button[data-ruling]").forEach(function (b) {
      b.hidden = stop.rulings.indexOf(b.dataset.ruling) < 0;
    });
  }

  // --- a question before an act that ends the game (as the correspondence page asks) ---------------

  function confirmThen(question, action) {
    var box = document.getElementById("live-confirm");
    document.getElementById("live-confirm-question").textContent = question;
    box.hidden = false;
    var yes = document.getElementById("live-confirm-yes"), no = document.getElementById("live-confirm-no");
    function close() {
      box.hidden = true;
      yes.onclick = no.onclick = null;
    }
    yes.onclick = function () { close(); action(); };
    no.onclick = close;
    box.scrollIntoView({ block: "center" });
    yes.focus();
  }

  /** A line under a clock from the system's own state (byo-yomi periods, Canadian block, moves to control). */
  function detail(side, left) {
    var player = state.players[side];
    var parts = [];
    var byo = byoyomi(side, left);
    if (byo && byo.inPeriods) parts.push(fill(words.periods_left, { periods: byo.periods }));
    var system = (config.time_control || {}).system;
    if (system === "canadian" && player.in_overtime && typeof player.block_moves_left === "number") {
      parts.push(fill(words.block_moves_left, { moves: player.block_moves_left }));
    }
    if (system === "periods" && typeof player.control_through_move === "number") {
      var toControl = player.control_through_move - (player.moves_made || 0);
      if (toControl > 0) parts.push(fill(words.moves_to_control, { moves: toControl }));
    }
    return parts.join(" · ");
  }

  function showStatus() {
    var node = document.getElementById("live-status");
    var text = words[connection] || connection;
    if (state && state.paused && connection === "live") {
      var stop = state.player_stop;  // a player's stop or call: said as such, not as the arbiter's pause
      text = stop ? fill(words["stop_" + stop.kind] || words.paused, { side: words[stop.player] || stop.player })
        : words.paused;
    }
    if (state && !ongoing() && connection === "live") text = words.finished;
    if (node.textContent !== text) node.textContent = text;
    root.dataset.connection = connection;
  }

  /** How the game ended in the page's words: the socket's and the page's ``termination_text`` (the reader's
   * language, rules cited by rulebook), else the stored ``termination``. */
  function terminationText() {
    return state.termination_text || state.termination || "";
  }

  /** The game's state where the page says it: the header, the result line, whose controls are shown. */
  function showGame() {
    var over = !ongoing();
    var ended = terminationText();
    root.dataset.status = over ? "finished" : "ongoing";
    var header = document.getElementById("game-state");
    var text = over ? fill(words.finished_result, { result: state.result || "" }) : words.ongoing;
    if (header && header.dataset.text !== text + ended) {
      header.dataset.text = text + ended;
      header.textContent = "";
      var strong = document.createElement("strong");
      strong.textContent = text;
      header.appendChild(over ? strong : document.createTextNode(text));
      if (over && ended) header.appendChild(document.createTextNode(" (" + ended + ")"));
    }
    var line = document.getElementById("live-result-line");
    if (line) {
      line.hidden = !over;
      var result = over ? fill(words.result_line, { result: state.result || "" }) +
        (ended ? " — " + ended : "") : "";
      if (line.textContent !== result) line.textContent = result;
    }
    var player = document.getElementById("live-player");
    if (player) player.hidden = over;
    var resign = document.getElementById("live-resign");
    if (resign) resign.hidden = over;
    var ruling = document.getElementById("live-arbiter-ongoing");
    if (ruling) ruling.hidden = over;
    var reopen = document.getElementById("live-reopen-form");
    if (reopen) reopen.hidden = !over;
  }

  // --- the history, asked for again after a change (the server draws it: its words, its time zone) -------

  var historyAsked = null;
  function refreshHistory() {
    if (historyAsked) return;
    historyAsked = window.setTimeout(function () {
      historyAsked = null;
      window.fetch(window.location.pathname, { credentials: "same-origin", headers: { "Accept": "text/html" } })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (!html) return;
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live-history");
          var table = document.getElementById("live-history");
          if (fresh && table) table.innerHTML = fresh.innerHTML;
        }, function () { /* the next change asks again */ });
    }, 300);
  }

  var lastAsk = 0;
  function askAgain() {
    // The countdown reached zero here: the server decides (its scheduled check pushes the flag); ask
    // for the current state in case that push was missed.
    var now = Date.now();
    if (socket && socket.readyState === WebSocket.OPEN && now - lastAsk > 2000) {
      lastAsk = now;
      socket.send(JSON.stringify({ type: "refresh" }));
    }
  }

  // --- speech ----------------------------------------------------------------------------------

  function speechKey(side) {
    return "corr.live.speak." + config.game + "." + side;
  }

  function other(side) {
    return side === "white" ? "black" : "white";
  }

  /** The vision ``side``'s player set in their profile ("", "low", "blind"), when this page may know it. */
  function vision(side) {
    return (config.vision || {})[side] || "";
  }

  /** Seconds before a control at which ``side``'s player is warned (001 1.7.9), or null when none is owed. */
  function warningS(side) {
    return (config.warning_s || {})[vision(side)] || null;
  }

  function speaking(side) {
    var stored = null;
    try {
      stored = window.localStorage.getItem(speechKey(side));
    } catch (e) { /* storage refused: the default */ }
    if (stored === "1" || stored === "0") return stored === "1";
    return side === config.colour && !!vision(side);  // a player's own, when their profile asks for warnings
  }

  /** Speak ``text`` once if any of ``sides``' switches is on. */
  function announceTo(sides, text) {
    for (var i = 0; i < sides.length; i++) {
      if (speaking(sides[i])) return announce(sides[i], text);
    }
  }

  var spoken = [];  // what was said, newest last (read by the browser tests)
  window.corrLiveSpoken = spoken;

  function announce(side, text) {
    if (!speaking(side)) return;
    spoken.push(text);
    if (!("speechSynthesis" in window)) return;
    var utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = document.documentElement.lang || "en";
    window.speechSynthesis.speak(utterance);
  }

  /** Japanese byo-yomi figures of ``side`` with ``left`` ms in all: in the periods yet, and the current one's ms. */
  function byoyomi(side, left) {
    var control = config.time_control || {};
    if (control.system !== "byoyomi" || !control.period_time) return null;
    var player = state.players[side];
    var period = typeof player.period_ms === "number" ? player.period_ms : Math.round(control.period_time * 1000);
    var periods = typeof player.periods_left === "number" ? player.periods_left : control.periods;
    // Left in all = main time left + the periods left: past main time, only periods remain.
    var main = left - periods * period;
    if (main > 0) return { inPeriods: false, main: main, periods: periods };
    var current = left <= 0 ? 0 : left - (Math.ceil(left / period) - 1) * period;
    return { inPeriods: true, current: current, periods: Math.max(0, Math.ceil(left / period)) };
  }

  /** The figures speech follows for ``side``: ms to the next control, or ms left in the byo-yomi period. */
  function speechFigures(side, left) {
    var byo = byoyomi(side, left);
    if (byo && byo.inPeriods) return { period: byo.current, control: null };
    return { period: null, control: byo ? byo.main : left };
  }

  function crossed(before, now, thresholds) {
    // The smallest threshold passed between the two figures (one announcement, however far a tick jumped).
    var hit = null;
    thresholds.forEach(function (t) {
      if (before > t * 1000 && now <= t * 1000 && (hit === null || t < hit)) hit = t;
    });
    return hit;
  }

  function speak(now) {
    SIDES.forEach(function (side) {
      var player = state.players[side];
      if (state.running !== side || state.paused || player.flag_fallen || !speaking(side)) {
        previous[side] = null;
        return;
      }
      var figures = speechFigures(side, remainingMs(side));
      var before = previous[side];
      previous[side] = figures;
      if (!before) return;
      if (figures.period !== null && before.period !== null) {
        var second = crossed(before.period, figures.period, config.countdown_s);
        if (second !== null) announce(side, String(second));
      } else if (figures.control !== null && before.control !== null && warningS(side)) {
        var mark = crossed(before.control, figures.control, [warningS(side)]);
        if (mark !== null) announce(side, fill(words.say_minutes, { side: words[side], minutes: mark / 60 }));
      }
    });
  }

  /** The arbiter's list of the warnings owed (001 1.7.9): which is owed now. */
  function showOwed() {
    SIDES.forEach(function (side) {
      var item = document.getElementById("owed-" + side);
      if (!item) return;
      var now = "";
      var partner = state.players[other(side)];
      var seconds = warningS(side);
      if (partner && partner.flag_fallen) {
        now = fill(words.owed_flag, { side: words[other(side)] });
      } else if (seconds && !state.players[side].flag_fallen) {
        var control = speechFigures(side, remainingMs(side)).control;
        if (control !== null && control <= seconds * 1000) now = fill(words.owed_minutes, { minutes: seconds / 60 });
      }
      var node = item.querySelector(".owed-now");
      if (node.textContent !== now) node.textContent = now;
      item.classList.toggle("due", !!now);
    });
  }

  function setUpVision() {
    var select = document.getElementById("live-vision");
    if (!select || !config.colour) return;
    select.addEventListener("change", function () {
      var value = select.value;
      say("vision-message", words.sending, true);
      send("PATCH", config.urls.me, { vision: value }).then(function (answer) {
        if (answer.ok) {
          config.vision[config.colour] = value;
          var box = document.getElementById("speak-" + config.colour);
          if (box) box.checked = speaking(config.colour);
          previous[config.colour] = null;
        }
        say("vision-message", answer.ok ? words.vision_saved : fill(words.failed, { detail: answer.data.detail || "" }),
            answer.ok);
      }, function () {
        say("vision-message", words.network, false);
      });
    });
  }

  function setUpSpeech() {
    SIDES.forEach(function (side) {
      var box = document.getElementById("speak-" + side);
      if (!box) return;
      box.checked = speaking(side);
      box.addEventListener("change", function () {
        try {
          window.localStorage.setItem(speechKey(side), box.checked ? "1" : "0");
        } catch (e) { /* storage refused (private mode): the switch works until the page is left */ }
        previous[side] = null;
        if (box.checked && "speechSynthesis" in window) {
          // A word now, while the click counts as the user's gesture: browsers allow speech after it.
          var hello = new SpeechSynthesisUtterance(words[side]);
          hello.lang = document.documentElement.lang || "en";
          window.speechSynthesis.speak(hello);
        }
      });
    });
  }

  // --- the WebSocket ---------------------------------------------------------------------------

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + config.socket_path);
    connection = "connecting";
    showStatus();
    var answered = false;
    socket.onmessage = function (event) {
      // Live from the server's first message (the state), not from the open: a socket opened while the database is
      // down is accepted and closed at once with 1013, and must not reset the backoff (issue 42).
      if (!answered) {
        answered = true;
        retries = 0;
        connection = "live";
        showStatus();
        if (pendingMove) sendMove();  // the server is back: the move that got no answer, with its key
      }
      try {
        accept(JSON.parse(event.data));
      } catch (e) { /* not a payload: ignored */ }
    };
    socket.onclose = function (event) {
      socket = null;
      if (CLOSE_FINAL[event.code]) {
        connection = "closed_" + event.code;
        showStatus();
        return;
      }
      connection = "reconnecting";
      showStatus();
      // Back off to at most 10 s (0.5, 1, 2, 4, 8, then 10 s: a 1013, "try again later", the same way); the server
      // sends the whole state on connecting, so nothing is lost.
      window.setTimeout(connect, Math.min(10000, 500 * Math.pow(2, retries++)));
    };
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "refresh" }));
    }
  });

  // --- moves and the arbiter's actions through the API --------------------------------------------

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (field) return field.value;
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function post(url, body, key) {
    return send("POST", url, body, key);
  }

  function send(method, url, body, key) {
    var headers = { "Content-Type": "application/json", "Accept": "application/json",
                    "X-CSRFToken": csrfToken(), "Accept-Language": document.documentElement.lang || "en" };
    if (key) headers["Idempotency-Key"] = key;
    return window.fetch(url, {
      method: method, credentials: "same-origin", headers: headers, body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (data && data.live) accept(data.live);
        return { ok: response.ok, status: response.status, data: data || {} };
      });
    });
  }

  /** A new Idempotency-Key (a random UUID): one per move, sent again with each retry of that move. */
  function newKey() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    var bytes = window.crypto.getRandomValues(new Uint8Array(16));  // a page served over plain http
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  function say(id, text, ok) {
    var node = document.getElementById(id);
    if (!node) return;
    node.textContent = text;
    node.classList.toggle("error", !ok);
  }

  /** The number of the viewer's next move: their moves in the payload when it says, else those counted here. */
  function nextNumber(side) {
    var player = state.players[side];
    var known = config.moves_made[side] + movesSent[side];
    // The payload's count is the server's: newer than the page's, unless a move was just accepted here.
    if (typeof player.moves_made === "number") known = Math.max(known, player.moves_made);
    return known + 1;
  }

  var pressedAt = null;  // performance.now() of the press of the move button (pointer or key)
  window.corrLiveSent = [];  // the bodies of the moves sent (read by the browser tests)

  function setUpMove() {
    var form = document.getElementById("live-move");
    if (!form || !config.colour) return;
    var button = document.getElementById("move-made");
    function pressed() { pressedAt = window.performance.now(); }
    button.addEventListener("pointerdown", pressed);
    button.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") pressed();
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var at = pressedAt !== null ? pressedAt : window.performance.now();
      pressedAt = null;
      if (busy || state.running !== config.colour || state.paused) return;
      var notation = document.getElementById("live-notation");
      var number = nextNumber(config.colour);
      busy = true;
      render();
      say("move-message", words.sending, true);
      // lag_ms: the time from the press to the request leaving, as lichess's client reports it; the server
      // forgives it within the player's quota (corr.clock.live.lag) and stamps the press on arrival.
      var body = { number: number, notation: notation.value.trim(),
                   lag_ms: Math.min(LAG_MS_MAX, Math.max(0, Math.round(window.performance.now() - at))) };
      window.corrLiveSent.push(body);
      pendingMove = { body: body, key: newKey(), number: number, tries: 0 };
      sendMove();
    });
  }

  // A move not answered (no answer, or 503: the database is gone) is sent again with its key until it is
  // answered: the server replays the first answer of a move it stored (201), so a move is never made twice
  // nor lost, and the page never says "refused" for a move that was recorded (issue 42).
  var pendingMove = null;  // { body, key, number, tries } of the move being sent
  var moveInFlight = false;
  var retryTimer = null;
  window.corrLiveKeys = [];  // the Idempotency-Key of each request of a move (read by the browser tests)

  function sendMove() {
    var move = pendingMove;
    if (!move || moveInFlight) return;
    window.clearTimeout(retryTimer);
    moveInFlight = true;
    window.corrLiveKeys.push(move.key);
    post(config.urls.moves, move.body, move.key).then(function (answer) {
      moveInFlight = false;
      if (answer.status >= 500) {
        say("move-message", fill(words.refused, { detail: answer.data.detail || "" }), false);
        retryMove();
        return;
      }
      pendingMove = null;
      busy = false;
      if (answer.ok) {
        movesSent[config.colour] += 1;
        document.getElementById("live-notation").value = "";
        say("move-message", fill(words.sent, { number: move.number }), true);
      } else {
        say("move-message", fill(words.refused, { detail: answer.data.detail || "" }), false);
      }
      render();
    }, function () {
      moveInFlight = false;
      say("move-message", words.network, false);
      retryMove();
    });
  }

  /** Send the pending move again after 1, 2, 4, then every 5 s (sooner when the socket reconnects). */
  function retryMove() {
    if (!pendingMove) return;
    var wait = Math.min(5000, 1000 * Math.pow(2, pendingMove.tries++));
    retryTimer = window.setTimeout(sendMove, wait);
    render();
  }

  function setUpStops() {
    if (!config.colour) return;
    function send(url, body) {
      say("move-message", words.sending, true);
      post(url, body).then(function (answer) {
        say("move-message", answer.ok ? words.done : fill(words.refused, { detail: answer.data.detail || "" }),
            answer.ok);
      }, function () {
        say("move-message", words.network, false);
      });
    }
    var stop = document.getElementById("live-stop"), call = document.getElementById("live-call");
    if (stop) stop.addEventListener("click", function () {
      confirmThen(config.stop_claims_draw ? words.confirm_stop_claim : words.confirm_stop, function () {
        send(config.urls.stop, {});
      });
    });
    if (call) call.addEventListener("click", function () {
      var reason = document.getElementById("call-reason");
      send(config.urls.call, reason && reason.value.trim() ? { reason: reason.value.trim() } : {});
    });
  }

  function setUpArbiter() {
    if (!config.ruling) return;
    function run(action, body) {
      say("arbiter-message", words.sending, true);
      post(config.urls[action], body).then(function (answer) {
        say("arbiter-message", answer.ok ? words.done : fill(words.failed, { detail: answer.data.detail || "" }),
            answer.ok);
      }, function () {
        say("arbiter-message", words.network, false);
      });
    }
    ["live-pause", "live-resume"].forEach(function (id) {
      var button = document.getElementById(id);
      button.addEventListener("click", function () {
        var reason = document.getElementById("pause-reason").value.trim();
        run(button.dataset.action, reason ? { reason: reason } : {});
      });
    });
    var adjust = document.getElementById("live-adjust-form");
    adjust.addEventListener("submit", function (event) {
      event.preventDefault();
      run("adjust", { player: adjust.player.value, seconds: Number(adjust.seconds.value), reason: adjust.reason.value });
    });
    var illegal = document.getElementById("live-illegal-form");
    illegal.addEventListener("submit", function (event) {
      event.preventDefault();
      var body = { player: illegal.player.value };
      if (illegal.reason.value.trim()) body.reason = illegal.reason.value.trim();
      run("illegal", body);
    });
    var excuse = document.getElementById("live-excuse-form");
    excuse.addEventListener("submit", function (event) {
      event.preventDefault();
      say("arbiter-message", words.sending, true);
      post(config.urls.excuse, { player: excuse.player.value, reason: excuse.reason.value }).then(function (answer) {
        // The game is reopened: the payload of the answer (and the push) redraws the page for it.
        say("arbiter-message", answer.ok ? words.done : fill(words.failed, { detail: answer.data.detail || "" }),
            answer.ok);
      }, function () {
        say("arbiter-message", words.network, false);
      });
    });
    var result = document.getElementById("live-result-form");
    result.addEventListener("submit", function (event) {
      event.preventDefault();
      var shown = result.result.options[result.result.selectedIndex].text;
      confirmThen(fill(words.confirm_result, { result: shown }), function () {
        run("result", { result: result.result.value, termination: result.termination.value });
      });
    });
    var reopen = document.getElementById("live-reopen-form");
    reopen.addEventListener("submit", function (event) {
      event.preventDefault();
      confirmThen(words.confirm_reopen, function () {
        run("reopen", { note: reopen.note.value.trim() });
      });
    });
    var ruling = document.getElementById("live-ruling-form");
    ruling.querySelectorAll("button[data-ruling]").forEach(function (button) {
      button.addEventListener("click", function () {
        var body = { ruling: button.dataset.ruling };
        var seconds = ruling.seconds.value.trim(), reason = ruling.reason.value.trim();
        if (seconds && button.dataset.ruling === "penalty") body.seconds = Number(seconds);
        if (reason) body.reason = reason;
        run("ruling", body);
      });
    });
  }

  accept(config.payload);
  setUpSpeech();
  setUpVision();
  setUpMove();
  setUpStops();
  setUpArbiter();
  connect();
  window.setInterval(function () {
    render();
    speak(Date.now());
  }, TICK_MS);
})();
