/* What corr's two boards share (issue 36): the board a player moves on (move_board.js) and the board a conditional
 * line is built on (conditional.js), both cm-chessboard (vendored, corr/static/vendor/cm-chessboard/VENDORED.md).
 *
 * One board as corr draws it (the piece sprite, the side it is drawn from, the last move and a king in check
 * marked), the input that takes only a listed legal move, the question when several moves share two squares
 * (a promotion: the queen first) and the keyboard's way, the legal moves as a list. A move here is what
 * corr/web/move_board.py lists: {from, to, promotion, notation, label, after}, `after` the placement it leaves.
 * The module judges no rule: who calls it gives the legal moves. Class names carry the caller's prefix ("mb",
 * "cb"), so that each page's styles and tests name their own.
 */
import {Chessboard, COLOR, INPUT_EVENT_TYPE, BORDER_TYPE} from "../vendor/cm-chessboard/src/Chessboard.js"
import {Markers, MARKER_TYPE} from "../vendor/cm-chessboard/src/extensions/markers/Markers.js"

export function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, (all, key) => Object.hasOwn(values, key) ? String(values[key]) : all)
}

export function make(tag, className, text) {
    const node = document.createElement(tag)
    if (className) node.className = className
    if (text !== undefined) node.textContent = text
    return node
}

/** The side cm-chessboard takes for corr's "white" or "black". */
export function side(colour) {
    return colour === "black" ? COLOR.black : COLOR.white
}

/** A board in `surface`: `placement` (a chess placement; draughts as move_board.py writes it) drawn from
 * `player`'s side with the piece `sprite` (a URL) and the library's assets under `assets`. */
export function makeBoard(surface, {placement, player, sprite, assets}) {
    return new Chessboard(surface, {
        position: placement,
        orientation: side(player),
        assetsUrl: assets,
        style: {pieces: {file: sprite}, borderType: BORDER_TYPE.none, animationDuration: 150},
        extensions: [{class: Markers, props: {autoMarkers: MARKER_TYPE.frame}}]
    })
}

/** The squares of the last move (`last`, [] for none) and the king in check (`check`, null for none) marked. */
export function mark(board, last, check) {
    board.removeMarkers()
    last.forEach((square) => board.addMarker(MARKER_TYPE.square, square))
    if (check) board.addMarker(MARKER_TYPE.circleDanger, check)
}

/** A move as the player reads it: its label, and the piece a pawn becomes (`promotions`: "q" -> "queen"). */
export function moveLabel(move, promotions) {
    return move.promotion ? move.label + " (" + promotions[move.promotion] + ")" : move.label
}

/** The input of `board` that takes only a move of `moves()` (the position's legal moves, read at each event):
 * `status` says why a square is refused (`refused(square)`, else words.not_legal) or what to do once a choice is
 * dropped (`canceled()`, else words.choose); `chosen(fits)` gets the moves that share the two squares. */
export function legalInput({moves, status, words, chosen, refused, canceled}) {
    const from = (square) => moves().filter((m) => m.from === square)
    return function input(event) {
        switch (event.type) {
        case INPUT_EVENT_TYPE.moveInputStarted:
            if (!from(event.squareFrom).length) {
                status.textContent = refused ? refused(event.squareFrom) : words.not_legal
                return false
            }
            status.textContent = fill(words.chosen, {square: event.squareFrom})
            return true
        case INPUT_EVENT_TYPE.validateMoveInput: {
            const fits = from(event.squareFrom).filter((m) => m.to === event.squareTo)
            if (!fits.length) {
                status.textContent = words.not_legal
                return false
            }
            // After this answer the library draws the piece on its square: the rest (captures, the rook of a
            // castling, the piece promoted to) is the move's placement, drawn by `chosen`.
            setTimeout(() => chosen(fits))
            return true
        }
        case INPUT_EVENT_TYPE.moveInputCanceled:
            status.textContent = canceled ? canceled() : words.choose
            return undefined
        default:
            return undefined
        }
    }
}

/** In `box`, which of `candidates` (several moves on the same two squares; a promotion: the queen first):
 * a button each, `choose(move)` on one, `again()` on "Choose again". */
export function askWhich(box, {prefix, candidates, words, label, choose, again}) {
    box.replaceChildren(make("span", prefix + "-which", words.which))
    const order = (move) => "qrbn".indexOf(move.promotion)
    candidates.slice().sort((a, b) => order(a) - order(b)).forEach((move) => {
        const button = make("button", "secondary " + prefix + "-choice", label(move))
        button.type = "button"
        button.dataset.notation = move.notation
        button.addEventListener("click", () => {
            box.hidden = true
            choose(move)
        })
        box.append(" ", button)
    })
    const back = make("button", "secondary " + prefix + "-again", words.again)
    back.type = "button"
    back.addEventListener("click", () => {
        box.hidden = true
        again()
    })
    box.append(" ", back)
    box.hidden = false
    box.querySelector("button").focus()
}

/** The keyboard's way: the legal moves as a list with "Play this move" (`play(move)`), in a `<p>` (class
 * prefix-moves) with the id `id` on its list. `list.show(moves)` fills it with a position's moves. */
export function moveList({prefix, id, words, label, play}) {
    const box = make("p", prefix + "-moves")
    const select = make("select", prefix + "-select")
    select.id = id
    const title = make("label", "", words.list)
    title.htmlFor = id
    const button = make("button", "secondary " + prefix + "-play", words.play)
    button.type = "button"
    let shown = []
    button.addEventListener("click", () => {
        if (select.value !== "") play(shown[Number(select.value)])
    })
    box.append(title, " ", select, " ", button)
    return {
        box,
        show(moves) {
            shown = moves
            select.replaceChildren(new Option(words.list_none, ""))
            moves.forEach((move, index) => select.append(new Option(label(move), String(index))))
            select.value = ""
        }
    }
}
