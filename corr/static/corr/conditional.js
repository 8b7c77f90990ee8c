/* The board a conditional line is built on (templates/corr/_conditional_form.html; corr/web/conditional_board.py).
 *
 * The same board as the one a player moves on (cm-chessboard, set up by board.js): the player clicks or drags a
 * piece to its square, first the partner's expected move, then their own reply, and so on down a branch; "Back to
 * the start position" begins another branch, "go on here" goes on from one in the list. A partner's move already
 * in the line follows its branch. The keyboard's way is the list of the legal moves under the board; a promotion
 * is asked. Only legal moves are taken: chess.js (vendored, corr/static/vendor/chess.js/VENDORED.md) lists them at
 * each position of the line, since the server cannot list those of every position the line may reach.
 *
 * The script writes the line into the form's text area in SAN, as the text path and the stored line write it
 * (e5 Nf3), one branch a line, a deeper branch indented by two spaces, and reads that text back (SAN, or UCI as
 * e7e5) when the player comes back from it. The server stays the only judge: it reads the line sent and checks
 * every move at every node, and a move it refuses is named by its line, as a typed one is. Without this script
 * the text area is the way; "Type the line as text" shows it here too. Chess only: draughts lines are typed.
 */
import {Chess} from "../vendor/chess.js/chess.js"
import {askWhich, fill, legalInput, make, makeBoard, mark, moveLabel, moveList} from "./board.js"

const configNode = document.getElementById("conditional-config")
const root = document.getElementById("conditional-board")
const form = document.getElementById("conditional-form")
const textBox = document.getElementById("conditional-text")
const textarea = form ? form.querySelector("textarea[name=conditional]") : null
const NUMBER = /^\d+\.+/  // "2." "1..." before a move, or a token of its own, as the server reads them

// --- positions: chess.js knows the rules ------------------------------------------------------------------------

/** The legal moves of `game` as board.js takes them (the move board's shape), in SAN order. */
function legal(game) {
    return game.moves({verbose: true}).map((m) => ({
        from: m.from, to: m.to, promotion: m.promotion || "", notation: m.lan, label: m.san,
        after: m.after.split(" ")[0]
    })).sort((a, b) => a.label.localeCompare(b.label))
}

/** `game` after `text` (SAN, or UCI such as e7e5 or e7e8q), as {game, move: {san, uci}}; null when illegal. */
function played(game, text) {
    const after = new Chess(game.fen())
    try {
        const move = after.move(text, {strict: false})
        return {game: after, move: {san: move.san, uci: move.lan}}
    } catch {
        return null
    }
}

/** The square of the king in check in `game` (the side to move's); null when none is. */
function checkOf(game) {
    if (!game.inCheck()) return null
    const king = game.findPiece({type: "k", color: game.turn()})
    return king.length ? king[0] : null
}

function start() {
    const config = JSON.parse(configNode.textContent)
    const words = config.words
    let origin
    try {
        origin = new Chess(config.fen)
    } catch {
        return  // a position chess.js does not take: the text area stays the way
    }

    // --- the line: branches {ifMove, thenMove (null: the reply not chosen yet), next}, each move {san, uci} ---
    let tree = fromConfig(config.tree)
    let path = []  // the indices of the branches from the start to where the next move goes
    let changed = false  // the text area is the board's line only once the board changed it

    function fromConfig(nodes) {
        return (nodes || []).map((node) => ({ifMove: node.if, thenMove: node.then, next: fromConfig(node.next)}))
    }

    function nodeAt(indices) {
        let level = tree, node = null
        indices.forEach((index) => {
            node = level[index]
            level = node.next
        })
        return node
    }

    /** The position where the next move goes, and the squares of the move that led there. */
    function here() {
        let game = origin, level = tree, last = null
        path.forEach((index) => {
            const node = level[index]
            for (const move of [node.ifMove, node.thenMove]) {
                const next = move && played(game, move.uci)
                if (next) {
                    game = next.game
                    last = move.uci
                }
            }
            level = node.next
        })
        return {game, last: last ? [last.slice(0, 2), last.slice(2, 4)] : config.last}
    }

    function awaitingReply() {
        const node = path.length ? nodeAt(path) : null
        return node !== null && node.thenMove === null
    }

    function addMove(move) {
        const node = path.length ? nodeAt(path) : null
        if (node && node.thenMove === null) {
            node.thenMove = move
            return
        }
        const level = node ? node.next : tree
        const known = level.findIndex((branch) => branch.ifMove.uci === move.uci)
        if (known >= 0) {  // already in the line: follow its branch
            path.push(known)
            return
        }
        level.push({ifMove: move, thenMove: null, next: []})
        path.push(level.length - 1)
    }

    function canTakeBack() {
        if (!path.length) return false
        const node = nodeAt(path)
        return node.thenMove === null || !node.next.length
    }

    function takeBack() {
        if (!canTakeBack()) return
        const node = nodeAt(path)
        if (node.thenMove === null) {
            const parent = path.length > 1 ? nodeAt(path.slice(0, -1)).next : tree
            parent.splice(path[path.length - 1], 1)
            path.pop()
        } else {
            node.thenMove = null
        }
    }

    function removeBranch(indices) {
        const parent = indices.length > 1 ? nodeAt(indices.slice(0, -1)).next : tree
        const at = indices[indices.length - 1]
        parent.splice(at, 1)
        const depth = indices.length - 1
        const samePrefix = path.length > depth && indices.slice(0, depth).every((v, i) => path[i] === v)
        if (samePrefix && path[depth] === at) {
            path = indices.slice(0, -1)
        } else if (samePrefix && path[depth] > at) {
            path[depth] -= 1
        }
    }

    /** The line as the text area takes it (corr/web/conditional_text.py): one branch a line, in SAN; a branch
     * without its reply is left out. */
    function lines(nodes, depth) {
        return nodes.filter((node) => node.thenMove).flatMap((node) => [
            " ".repeat(depth * 2) + node.ifMove.san + " " + node.thenMove.san, ...lines(node.next, depth + 1)])
    }

    /** The text area's line replayed from the start, each move legal where it stands; null when a line is no
     * branch (two moves, indented two spaces a level) or a move cannot be played there. */
    function parsed(text) {
        const result = []
        let levels = [{nodes: result, game: origin}]
        for (const raw of text.split("\n")) {
            if (!raw.trim()) continue
            const body = raw.replace(/^ +/, "")
            const indent = raw.length - body.length
            if (indent % 2 || indent / 2 >= levels.length) return null
            const tokens = body.trim().split(/\s+/).map((t) => t.replace(NUMBER, "")).filter((t) => t)
            if (tokens.length !== 2) return null
            levels = levels.slice(0, indent / 2 + 1)
            const level = levels[levels.length - 1]
            const ifPlayed = played(level.game, tokens[0])
            const thenPlayed = ifPlayed && played(ifPlayed.game, tokens[1])
            if (!thenPlayed) return null
            const node = {ifMove: ifPlayed.move, thenMove: thenPlayed.move, next: []}
            level.nodes.push(node)
            levels.push({nodes: node.next, game: thenPlayed.game})
        }
        return result
    }

    // --- the page -------------------------------------------------------------------------------------------------

    const status = make("p", "cb-status")
    status.setAttribute("role", "status")
    status.setAttribute("aria-live", "polite")
    const surface = make("div", "cb-board")
    surface.setAttribute("aria-label", words.board)
    const choices = make("div", "cb-choices")
    choices.hidden = true
    const label = (move) => moveLabel(move, config.promotions)
    const keys = moveList({prefix: "cb", id: "conditional-board-list", words, label, play: add})
    const tools = make("div", "cb-tools")
    const startButton = make("button", "secondary cb-start", words.start)
    startButton.type = "button"
    const backButton = make("button", "secondary cb-back", words.undo)
    backButton.type = "button"
    tools.append(startButton, backButton)
    const listTitle = make("p", "cb-list-title", words.lines)
    const list = make("div", "cb-list")
    const toText = make("button", "secondary cb-to-text", words.as_text)
    toText.type = "button"
    const toBoard = make("button", "secondary cb-to-board", words.as_board)
    toBoard.type = "button"
    toBoard.hidden = true
    root.append(status, surface, choices, keys.box, tools, listTitle, list, toText)
    textBox.before(toBoard)

    function prompt() {
        const colour = here().game.turn() === "b" ? "black" : "white"
        return fill(awaitingReply() ? words.reply : words.partner, {colour: config.colours[colour]})
    }

    function refused(square) {
        const game = here().game
        const piece = game.get(square)
        if (piece && piece.color !== game.turn()) {
            return fill(words.not_mover, {colour: config.colours[game.turn() === "b" ? "black" : "white"], square})
        }
        return words.not_legal
    }

    let moves = []  // the legal moves where the next move goes, as the board and the list offer them
    const board = makeBoard(surface, {...config, placement: origin.fen().split(" ")[0]})
    board.enableMoveInput(legalInput({
        moves: () => moves, status, words, refused, canceled: prompt,
        chosen: (fits) => fits.length === 1 ? add(fits[0]) : askWhich(choices, {
            prefix: "cb", candidates: fits, words, label, choose: add, again: () => update(prompt())})
    }))

    function add(move) {
        choices.hidden = true
        addMove({san: move.label, uci: move.notation})
        changed = true
        update(fill(words.added, {move: move.label}) + " " + prompt())
    }

    function drawBoard() {
        const now = here()
        moves = legal(now.game)
        board.setPosition(now.game.fen().split(" ")[0], false)
        mark(board, now.last, checkOf(now.game))
        keys.show(moves)
        keys.box.hidden = !moves.length
        backButton.disabled = !canTakeBack()
        startButton.disabled = !path.length
    }

    function drawList() {
        list.replaceChildren(tree.length ? branches(tree, origin, []) : make("p", "why cb-none", words.none))
    }

    function branches(nodes, game, prefix) {
        const ul = make("ul", "cb-branches")
        nodes.forEach((node, index) => {
            const indices = prefix.concat([index])
            const afterIf = played(game, node.ifMove.uci)
            const text = node.ifMove.san + " \u2192 " + (node.thenMove ? node.thenMove.san : words.waiting)
            const li = make("li")
            if (indices.length === path.length && indices.every((v, i) => path[i] === v)) {
                li.className = "cb-current"
                li.setAttribute("aria-current", "true")
            }
            const row = make("span", "cb-row")
            row.append(make("span", "cb-branch", text))
            const go = make("button", "secondary cb-here", words.here_short)
            go.type = "button"
            go.setAttribute("aria-label", words.here + ": " + text)
            go.addEventListener("click", () => {
                path = indices
                update(prompt())
            })
            const drop = make("button", "secondary cb-remove", words.remove_short)
            drop.type = "button"
            drop.setAttribute("aria-label", words.remove + ": " + text)
            drop.addEventListener("click", () => {
                removeBranch(indices)
                changed = true
                update(prompt())
            })
            row.append(go, drop)
            li.append(row)
            const afterThen = afterIf && node.thenMove && played(afterIf.game, node.thenMove.uci)
            if (afterThen && node.next.length) li.append(branches(node.next, afterThen.game, indices))
            ul.append(li)
        })
        return ul
    }

    function update(message) {
        choices.hidden = true
        drawBoard()
        drawList()
        status.textContent = message
        if (changed) textarea.value = lines(tree, 0).join("\n")
    }

    startButton.addEventListener("click", () => {
        path = []
        update(prompt())
    })

    backButton.addEventListener("click", () => {
        takeBack()
        changed = true
        update(prompt())
    })

    function showBoard(onBoard) {
        root.hidden = !onBoard
        textBox.hidden = onBoard
        toBoard.hidden = onBoard
    }

    toText.addEventListener("click", () => {
        if (changed) textarea.value = lines(tree, 0).join("\n")
        showBoard(false)
        textarea.focus()
    })

    toBoard.addEventListener("click", () => {
        const read = parsed(textarea.value)
        if (read !== null && textarea.value.trim()) {
            tree = read
            path = []
        }
        changed = true  // on the board, the board's line is the one sent
        showBoard(true)
        update(read === null ? words.unread + " " + prompt() : prompt())
        keys.box.querySelector("select").focus()
    })

    // A line refused by the server comes back in the text area with its line named: it is read there first.
    const refusedLine = form.querySelector(".errorlist") !== null
    const typed = parsed(textarea.value)
    if (typed !== null && textarea.value.trim()) tree = typed
    showBoard(!refusedLine)
    update(prompt())
}

if (configNode && root && form && textBox && textarea) start()
