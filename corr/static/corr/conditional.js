/* The board diagram of a conditional line (templates/corr/_conditional_form.html; corr/web/conditional_board.py).
 *
 * The player clicks a piece, then the square it goes to: first the partner's expected move, then their own
 * reply, and so on down a branch; "Back to the start position" begins another branch, "Add replies after this
 * branch" goes on from one in the list. Clicking a partner's move that is already in the line follows its branch.
 * The squares are buttons: Tab reaches the board, the arrow keys move between squares, Enter or Space chooses.
 *
 * The script knows where the pieces stand and nothing of the rules: it moves the piece clicked (the rook too
 * when a king goes two squares, the pawn passed when a pawn takes on an empty square, a pawn reaching the last
 * rank becomes the piece chosen) and writes the line into the form's text area in UCI (e2e4), one branch a line,
 * a deeper branch indented by two spaces. The server checks every move when the line is sent and stores it in
 * SAN; a move the rules refuse is named by its line, as a typed one is. Without this script the text area is
 * the way; "Type the line as text" shows it here too.
 */
(function () {
  "use strict";

  var configNode = document.getElementById("conditional-config");
  var root = document.getElementById("conditional-board");
  var form = document.getElementById("conditional-form");
  var textBox = document.getElementById("conditional-text");
  var textarea = form ? form.querySelector("textarea[name=conditional]") : null;
  if (!configNode || !root || !form || !textBox || !textarea) return;
  var config = JSON.parse(configNode.textContent);
  var words = config.words;
  var FILES = "abcdefgh";
  var GLYPHS = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F\uFE0E" };
  var LETTERS = { k: "K", q: "Q", r: "R", b: "B", n: "N", p: "" };
  var UCI = /^[a-h][1-8][a-h][1-8][qrbn]?$/;
  var NUMBER = /^\d+\.+/;

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }

  function make(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // --- positions: where the pieces stand, and nothing of the rules -------------------------------------------

  function other(colour) {
    return colour === "white" ? "black" : "white";
  }

  function colourOf(piece) {
    return piece === piece.toUpperCase() ? "white" : "black";
  }

  /** The placement and the side to move of a FEN. */
  function fromFen(fen) {
    var parts = fen.split(" ");
    var squares = {};
    parts[0].split("/").forEach(function (row, index) {
      var file = 0;
      for (var i = 0; i < row.length; i++) {
        var c = row.charAt(i);
        if (c >= "1" && c <= "8") {
          file += Number(c);
        } else {
          squares[FILES.charAt(file) + (8 - index)] = c;
          file += 1;
        }
      }
    });
    return { squares: squares, turn: parts[1] === "b" ? "black" : "white" };
  }

  /** The position after `uci`; null when no piece of the side to move stands on its first square. */
  function play(position, uci) {
    var from = uci.slice(0, 2), to = uci.slice(2, 4), promotion = uci.slice(4);
    var piece = position.squares[from];
    if (!piece || colourOf(piece) !== position.turn) return null;
    var squares = Object.assign({}, position.squares);
    var kind = piece.toLowerCase();
    delete squares[from];
    if (kind === "p" && from.charAt(0) !== to.charAt(0) && !position.squares[to]) {
      delete squares[to.charAt(0) + from.charAt(1)];  // en passant: the pawn passed is taken
    }
    var files = FILES.indexOf(to.charAt(0)) - FILES.indexOf(from.charAt(0));
    if (kind === "k" && Math.abs(files) === 2) {  // castling: the rook goes over the king
      var rank = from.charAt(1);
      var corner = (files > 0 ? "h" : "a") + rank, beside = (files > 0 ? "f" : "d") + rank;
      if (squares[corner]) {
        squares[beside] = squares[corner];
        delete squares[corner];
      }
    }
    squares[to] = promotion ? (position.turn === "white" ? promotion.toUpperCase() : promotion) : piece;
    return { squares: squares, turn: other(position.turn) };
  }

  /** `uci` as a player reads it, long algebraic (Ng1-f3, e4xd5, e7-e8=Q, O-O): the server writes SAN. */
  function label(position, move) {
    if (move.san) return move.san;
    var uci = move.uci, from = uci.slice(0, 2), to = uci.slice(2, 4);
    var piece = position.squares[from] || "";
    var kind = piece.toLowerCase();
    var files = FILES.indexOf(to.charAt(0)) - FILES.indexOf(from.charAt(0));
    if (kind === "k" && Math.abs(files) === 2) return files > 0 ? "O-O" : "O-O-O";
    var takes = position.squares[to] || (kind === "p" && from.charAt(0) !== to.charAt(0));
    return (LETTERS[kind] || "") + from + (takes ? "x" : "-") + to + (uci.length > 4 ? "=" + uci.charAt(4).toUpperCase() : "");
  }

  // --- the line: branches {ifMove, thenMove (null: the reply not chosen yet), next} -------------------------

  var start = fromFen(config.fen);
  var tree = fromConfig(config.tree);
  var path = [];          // the indices of the branches from the start to where the next move goes
  var selected = null;    // the square chosen, waiting for the square it goes to
  var focused = null;     // the square that Tab reaches (roving tabindex)
  var lastMove = null;    // {from, to} of the move shown last

  function fromConfig(nodes) {
    return (nodes || []).map(function (node) {
      return { ifMove: node["if"], thenMove: node.then, next: fromConfig(node.next) };
    });
  }

  function nodeAt(indices) {
    var level = tree, node = null;
    indices.forEach(function (index) {
      node = level[index];
      level = node.next;
    });
    return node;
  }

  /** The position where the next move goes, and the moves that led there. */
  function here() {
    var position = start, level = tree, moves = [];
    path.forEach(function (index) {
      var node = level[index];
      [node.ifMove, node.thenMove].forEach(function (move) {
        if (move) {
          moves.push(move.uci);
          position = play(position, move.uci) || position;
        }
      });
      level = node.next;
    });
    return { position: position, last: moves.length ? moves[moves.length - 1] : null };
  }

  function awaitingReply() {
    var node = path.length ? nodeAt(path) : null;
    return node !== null && node.thenMove === null;
  }

  function addMove(uci) {
    var node = path.length ? nodeAt(path) : null;
    if (node && node.thenMove === null) {
      node.thenMove = { uci: uci };
      return;
    }
    var level = node ? node.next : tree;
    for (var i = 0; i < level.length; i++) {
      if (level[i].ifMove.uci === uci) {  // already in the line: follow its branch
        path.push(i);
        return;
      }
    }
    level.push({ ifMove: { uci: uci }, thenMove: null, next: [] });
    path.push(level.length - 1);
  }

  function takeBack() {
    if (!path.length) return;
    var node = nodeAt(path);
    if (node.thenMove === null) {
      var parent = path.length > 1 ? nodeAt(path.slice(0, -1)).next : tree;
      parent.splice(path[path.length - 1], 1);
      path.pop();
    } else if (!node.next.length) {
      node.thenMove = null;
    }
  }

  function canTakeBack() {
    if (!path.length) return false;
    var node = nodeAt(path);
    return node.thenMove === null || !node.next.length;
  }

  function removeBranch(indices) {
    var parent = indices.length > 1 ? nodeAt(indices.slice(0, -1)).next : tree;
    var at = indices[indices.length - 1];
    parent.splice(at, 1);
    var depth = indices.length - 1;
    var samePrefix = path.length > depth && indices.slice(0, depth).every(function (v, i) { return path[i] === v; });
    if (samePrefix && path[depth] === at) {
      path = indices.slice(0, -1);
    } else if (samePrefix && path[depth] > at) {
      path[depth] -= 1;
    }
  }

  /** The line as the text area takes it: one branch a line, its moves in UCI; a branch without its reply is left out. */
  function lines(nodes, depth) {
    var out = [];
    nodes.forEach(function (node) {
      if (!node.thenMove) return;
      out.push(new Array(depth * 2 + 1).join(" ") + node.ifMove.uci + " " + node.thenMove.uci);
      out = out.concat(lines(node.next, depth + 1));
    });
    return out;
  }

  /** The text area's line when it is written in UCI (as this script writes it), replayed from the start; else null. */
  function parsed(text) {
    var result = [];
    var levels = [{ nodes: result, position: start }];
    var rows = text.split("\n");
    for (var i = 0; i < rows.length; i++) {
      var raw = rows[i];
      if (!raw.trim()) continue;
      var body = raw.replace(/^ +/, "");
      var indent = raw.length - body.length;
      if (indent % 2 || indent / 2 >= levels.length) return null;
      var tokens = body.trim().split(/\s+/).map(function (t) { return t.replace(NUMBER, ""); })
        .filter(function (t) { return t; });
      if (tokens.length !== 2 || !UCI.test(tokens[0]) || !UCI.test(tokens[1])) return null;
      levels = levels.slice(0, indent / 2 + 1);
      var level = levels[levels.length - 1];
      var afterIf = play(level.position, tokens[0]);
      var afterThen = afterIf && play(afterIf, tokens[1]);
      if (!afterThen) return null;
      var node = { ifMove: { uci: tokens[0] }, thenMove: { uci: tokens[1] }, next: [] };
      level.nodes.push(node);
      levels.push({ nodes: node.next, position: afterThen });
    }
    return result;
  }

  // --- the page ------------------------------------------------------------------------------------------

  var status = make("p", "cb-status");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  var board = make("div", "cb-board");
  board.setAttribute("role", "group");
  board.setAttribute("aria-label", words.board);
  var squares = {};
  var order = [];  // the squares as drawn, row by row from the top
  var ranks = config.player === "black" ? "12345678" : "87654321";
  var files = config.player === "black" ? "hgfedcba" : FILES;
  for (var r = 0; r < 8; r++) {
    for (var f = 0; f < 8; f++) {
      var name = files.charAt(f) + ranks.charAt(r);
      var button = make("button", "cb-sq " + ((FILES.indexOf(name.charAt(0)) + Number(name.charAt(1))) % 2 ? "cb-dark" : "cb-light"));
      button.type = "button";
      button.dataset.square = name;
      button.tabIndex = -1;
      var glyph = make("span", "cb-piece");
      glyph.setAttribute("aria-hidden", "true");
      button.appendChild(glyph);
      if (f === 0) appendCoordinate(button, "cb-rank", name.charAt(1));
      if (r === 7) appendCoordinate(button, "cb-file", name.charAt(0));
      squares[name] = button;
      order.push(name);
      board.appendChild(button);
    }
  }
  focused = config.player === "black" ? "e7" : "e2";

  function appendCoordinate(button, className, text) {
    var mark = make("span", "cb-coord " + className, text);
    mark.setAttribute("aria-hidden", "true");
    button.appendChild(mark);
  }

  var tools = make("div", "cb-tools");
  var promoteLabel = make("label", "cb-promote");
  promoteLabel.appendChild(document.createTextNode(words.promote + " "));
  var promote = make("select");
  Object.keys(config.promotions).forEach(function (key) {
    var option = make("option", null, config.promotions[key]);
    option.value = key;
    promote.appendChild(option);
  });
  promoteLabel.appendChild(promote);
  var startButton = make("button", "secondary cb-start", words.start);
  startButton.type = "button";
  var backButton = make("button", "secondary cb-back", words.undo);
  backButton.type = "button";
  tools.appendChild(startButton);
  tools.appendChild(backButton);
  var listTitle = make("p", "cb-list-title", words.list);
  var list = make("div", "cb-list");
  var toText = make("button", "secondary cb-to-text", words.as_text);
  toText.type = "button";
  var toBoard = make("button", "secondary cb-to-board", words.as_board);
  toBoard.type = "button";
  toBoard.hidden = true;

  root.appendChild(status);
  root.appendChild(board);
  root.appendChild(promoteLabel);
  root.appendChild(tools);
  root.appendChild(listTitle);
  root.appendChild(list);
  root.appendChild(toText);
  textBox.parentNode.insertBefore(toBoard, textBox);

  function prompt() {
    var mover = here().position.turn;
    return fill(awaitingReply() ? words.reply : words.partner, { colour: config.colours[mover] });
  }

  function drawBoard() {
    var now = here();
    var position = now.position;
    lastMove = now.last ? { from: now.last.slice(0, 2), to: now.last.slice(2, 4) } : null;
    order.forEach(function (name) {
      var button = squares[name];
      var piece = position.squares[name];
      var glyph = button.firstChild;
      glyph.textContent = piece ? GLYPHS[piece.toLowerCase()] : "";
      glyph.className = "cb-piece" + (piece ? (colourOf(piece) === "white" ? " cb-white" : " cb-black") : "");
      button.setAttribute("aria-label", name + ", " + (piece ? config.pieces[piece] : words.empty));
      button.setAttribute("aria-pressed", selected === name ? "true" : "false");
      button.classList.toggle("cb-selected", selected === name);
      button.classList.toggle("cb-last", !!lastMove && (lastMove.from === name || lastMove.to === name));
      button.tabIndex = name === focused ? 0 : -1;
    });
    backButton.disabled = !canTakeBack();
    startButton.disabled = !path.length;
  }

  function drawList() {
    list.textContent = "";
    if (!tree.length) {
      list.appendChild(make("p", "why cb-none", words.none));
      return;
    }
    list.appendChild(branches(tree, start, []));
  }

  function branches(nodes, position, prefix) {
    var ul = make("ul", "cb-branches");
    nodes.forEach(function (node, index) {
      var indices = prefix.concat([index]);
      var afterIf = play(position, node.ifMove.uci) || position;
      var text = label(position, node.ifMove) + " \u2192 " + (node.thenMove ? label(afterIf, node.thenMove) : words.waiting);
      var li = make("li");
      var current = indices.length === path.length && indices.every(function (v, i) { return path[i] === v; });
      if (current) {
        li.className = "cb-current";
        li.setAttribute("aria-current", "true");
      }
      var row = make("span", "cb-row");
      row.appendChild(make("span", "cb-branch", text));
      var go = make("button", "secondary cb-here", words.here_short);
      go.type = "button";
      go.setAttribute("aria-label", words.here + ": " + text);
      go.addEventListener("click", function () {
        path = indices;
        selected = null;
        update(prompt());
      });
      var drop = make("button", "secondary cb-remove", words.remove_short);
      drop.type = "button";
      drop.setAttribute("aria-label", words.remove + ": " + text);
      drop.addEventListener("click", function () {
        removeBranch(indices);
        selected = null;
        changed = true;
        update(prompt());
      });
      row.appendChild(go);
      row.appendChild(drop);
      li.appendChild(row);
      if (node.thenMove && node.next.length) {
        li.appendChild(branches(node.next, play(afterIf, node.thenMove.uci) || afterIf, indices));
      }
      ul.appendChild(li);
    });
    return ul;
  }

  var changed = false;

  function update(message) {
    drawBoard();
    drawList();
    status.textContent = message;
    if (changed) textarea.value = lines(tree, 0).join("\n");
  }

  function choose(name) {
    var position = here().position;
    var piece = position.squares[name];
    var mine = piece && colourOf(piece) === position.turn;
    focused = name;
    if (selected === null || selected === name || mine) {
      if (selected === name) {
        selected = null;
        update(prompt());
      } else if (mine) {
        selected = name;
        update(fill(words.chosen, { square: name }));
      } else {
        update(fill(words.not_mover, { colour: config.colours[position.turn], square: name }));
      }
      return;
    }
    var from = selected;
    var uci = from + name;
    var moving = position.squares[from];
    if (moving.toLowerCase() === "p" && (name.charAt(1) === "8" || name.charAt(1) === "1")) uci += promote.value;
    var shown = label(position, { uci: uci });
    selected = null;
    changed = true;
    addMove(uci);
    update(fill(words.added, { move: shown }) + " " + prompt());
  }

  board.addEventListener("click", function (event) {
    var button = event.target.closest("button.cb-sq");
    if (button) choose(button.dataset.square);
  });

  board.addEventListener("keydown", function (event) {
    var steps = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[event.key];
    if (!steps) return;
    event.preventDefault();
    var at = order.indexOf(focused);
    var row = Math.min(7, Math.max(0, Math.floor(at / 8) + steps[0]));
    var column = Math.min(7, Math.max(0, at % 8 + steps[1]));
    focused = order[row * 8 + column];
    drawBoard();
    squares[focused].focus();
  });

  startButton.addEventListener("click", function () {
    path = [];
    selected = null;
    update(prompt());
  });

  backButton.addEventListener("click", function () {
    takeBack();
    selected = null;
    changed = true;
    update(prompt());
  });

  function showBoard(onBoard) {
    root.hidden = !onBoard;
    textBox.hidden = onBoard;
    toBoard.hidden = onBoard;
  }

  toText.addEventListener("click", function () {
    if (changed) textarea.value = lines(tree, 0).join("\n");
    showBoard(false);
    textarea.focus();
  });

  toBoard.addEventListener("click", function () {
    var read = parsed(textarea.value);
    if (read !== null && textarea.value.trim()) {
      tree = read;
      path = [];
    }
    selected = null;
    changed = true;  // on the board, the board's line is the one sent
    showBoard(true);
    update(read === null ? words.unread + " " + prompt() : prompt());
    squares[focused].focus();
  });

  // A line refused by the server comes back in the text area with its line named: it is read there first.
  var refused = form.querySelector(".errorlist") !== null;
  var typed = parsed(textarea.value);
  if (typed !== null && textarea.value.trim()) tree = typed;
  showBoard(!refused);
  update(prompt());
})();
