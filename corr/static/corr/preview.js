// See before you act (issue 41): a form marked data-preview-url shows, as its fields change, what the act would do,
// from corr's own preview API (POST /api/games/{id}/preview/ or /api/leaves/preview/): nothing is stored, and
// nothing is fetched from anywhere else (script-src and connect-src 'self', corr/csp.py).
//
// On the form:
//   data-preview-url     the API to ask
//   data-preview-kind    the event's kind (move, penalty, delay, credit, result ...); "leave" with the leave URL
//                        asks the leave preview, whose answer lists game by game
//   data-preview-fields  the form's fields sent, by name; "first>from" sends first as from; "hours>seconds*3600"
//                        adds hours times 3600 to seconds
//   data-preview-needs   fields that must be filled before anything is asked
// Its <output data-preview> shows the answer: the changes worded by the API in the page's language
// (Accept-Language: the page's), or the API's refusal naming the field.
(() => {
  const lang = document.documentElement.lang || "en";

  const body = (form) => {
    const data = {};
    for (const spec of (form.dataset.previewFields || "").split(/\s+/).filter(Boolean)) {
      const [name, target] = spec.split(">");
      const field = form.elements.namedItem(name);
      if (!field || field.value === "") continue;
      if (target && target.includes("*")) {
        const [to, times] = target.split("*");
        data[to] = (data[to] || 0) + Number(field.value) * Number(times);
      } else if (target) {
        data[target] = field.value;
      } else {
        data[name] = field.type === "number" || name === "number" || name === "move" ? Number(field.value)
          : field.value;
      }
    }
    if (data.days !== undefined && data.seconds !== undefined) { data.seconds += data.days * 86400; delete data.days; }
    return data;
  };

  const item = (text, className) => {
    const li = document.createElement("li");
    li.textContent = text;
    if (className) li.className = className;
    return li;
  };

  const showGame = (out, answer) => {
    const list = document.createElement("ul");
    const changes = answer.changes || [];
    if (!changes.length) list.append(item(out.dataset.none));
    for (const line of changes) list.append(item(line));
    out.replaceChildren(list);
  };

  const showLeave = (out, answer) => {
    const list = document.createElement("ul");
    for (const row of answer.games) {
      const li = document.createElement("li");
      li.className = "leave-game";
      li.dataset.game = row.game;
      const head = document.createElement("strong");
      head.textContent = out.dataset.game.replace("{id}", row.game).replace("{tournament}", row.tournament_name)
        .replace("{opponent}", row.opponent);
      li.append(head);
      const lines = document.createElement("ul");
      if (!row.stops) lines.append(item(out.dataset.notStopped));
      else if (!row.changes.length) lines.append(item(out.dataset.none));
      for (const line of row.changes) lines.append(item(line, "moves"));
      li.append(lines);
      list.append(li);
    }
    if (!answer.games.length) list.append(item(out.dataset.noGames));
    out.replaceChildren(list);
  };

  const attach = (form) => {
    const out = form.querySelector("output[data-preview]");
    const token = form.elements.namedItem("csrfmiddlewaretoken").value;
    const leave = form.dataset.previewKind === "leave" && form.dataset.previewUrl.includes("/leaves/");
    let asked = 0, timer = null;
    const ask = async () => {
      const data = body(form);
      const needs = (form.dataset.previewNeeds || "").split(/\s+/).filter(Boolean);
      if (needs.some((name) => data[name] === undefined)) {
        out.replaceChildren();
        out.dataset.state = "idle";
        return;
      }
      const mine = ++asked;
      const sent = leave ? data : {events: [{kind: form.dataset.previewKind, ...data}]};
      out.dataset.state = "asking";
      try {
        const response = await fetch(form.dataset.previewUrl, {
          method: "POST", credentials: "same-origin", body: JSON.stringify(sent),
          headers: {"Content-Type": "application/json", "Accept": "application/json", "Accept-Language": lang,
                    "X-CSRFToken": token}});
        const answer = await response.json();
        if (mine !== asked) return;  // a later change asked again: its answer is the one shown
        if (!response.ok) {
          const refusal = document.createElement("p");
          refusal.className = "warn";
          refusal.textContent = answer.detail || String(response.status);
          out.replaceChildren(refusal);
        } else if (leave) {
          showLeave(out, answer);
        } else {
          showGame(out, answer);
        }
        out.dataset.state = response.ok ? "shown" : "refused";
      } catch (error) {
        if (mine === asked) { out.textContent = String(error); out.dataset.state = "failed"; }
      }
    };
    const later = () => { clearTimeout(timer); timer = setTimeout(ask, 250); };
    form.addEventListener("input", later);
    form.addEventListener("change", later);
    ask();
  };

  document.querySelectorAll("form[data-preview-url]").forEach(attach);
})();
