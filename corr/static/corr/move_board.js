/* The board a player moves on in a server chess or Russian draughts game (issue 36; corr/web/move_board.py).
 *
 * cm-chessboard (vendored, corr/static/vendor/cm-chessboard/VENDORED.md), set up by board.js as the conditional-line
 * builder's, draws the position in place of the server's diagram, from the player's side, the last move and a king
 * in check marked. The player clicks or drags a piece to its square; the keyboard's way is the list of the legal
 * moves under the board. The script judges no rule: the server listed the legal moves (the config's `moves`) and
 * only those are taken; where several share the two squares (a promotion, a draughts capture by another path) the
 * player is asked which. The move is then shown played and confirmed before it is sent (a correspondence move
 * cannot be taken back): "Send" writes its text (UCI, or c3:e5:g7) into the typed move form's notation field and
 * submits that form, so the server takes it by the typed move's path and checks it again. Without this script the
 * typed form is the way. The move chosen is written into that field (an input event) as soon as it is shown, so
 * the form's preview (preview.js, issue 41) says what it leaves before "Send" is pressed; "again" empties it.
 */
import {askWhich, fill, legalInput, make, makeBoard, mark, moveLabel, moveList, side} from "./board.js"

const configNode = document.getElementById("move-board-config")
const root = document.getElementById("move-board")
const form = document.getElementById("move-form")
const notation = form ? form.querySelector("input[name=notation]") : null

function start() {
    const config = JSON.parse(configNode.textContent)
    const words = config.words
    const diagram = document.getElementById("diagram-svg")
    const status = make("p", "mb-status")
    status.setAttribute("role", "status")
    status.setAttribute("aria-live", "polite")
    const surface = make("div", "mb-board")
    surface.setAttribute("aria-label", words.board)
    const choices = make("div", "mb-choices")
    choices.hidden = true
    const confirmBox = make("div", "mb-confirm")
    confirmBox.hidden = true
    const label = (move) => moveLabel(move, config.promotions)
    const list = moveList({prefix: "mb", id: "move-board-list", words, label, play: (move) => chosen(move, true)})
    list.show(config.moves)
    root.append(surface, status, choices, confirmBox, list.box)
    if (diagram) diagram.style.display = "none"
    root.hidden = false

    const board = makeBoard(surface, config)
    const input = legalInput({
        moves: () => config.moves, status, words,
        chosen: (fits) => fits.length === 1 ? chosen(fits[0], false) : ask(fits)
    })

    // --- a move chosen: asked which when several fit, then shown and confirmed ----------------------------------
    function ask(candidates) {
        askWhich(choices, {prefix: "mb", candidates, words, label, choose: (move) => chosen(move, true), again: reset})
    }

    async function chosen(move, animated) {
        board.disableMoveInput()
        list.box.hidden = true
        await board.setPosition(move.after, animated)
        mark(board, [move.from, move.to], null)
        typed(move.notation)
        status.textContent = fill(words.confirm, {move: label(move)})
        const send = make("button", "mb-send", fill(words.send, {move: label(move)}))
        send.type = "submit"
        const again = make("button", "secondary mb-again", words.again)
        again.type = "button"
        send.addEventListener("click", () => {
            notation.value = move.notation
            status.textContent = fill(words.sending, {move: label(move)})
            send.disabled = again.disabled = true
            form.requestSubmit()
        })
        again.addEventListener("click", reset)
        confirmBox.replaceChildren(send, " ", again)
        confirmBox.hidden = false
        send.focus()
    }

    // The typed field holds the move shown: its preview (preview.js listens for input) is the move's, before it is
    // sent, and no stale move is previewed once the player starts again.
    // Only a move the board wrote is taken back: what the player typed (or the page kept after a refusal) stays.
    let written = false
    function typed(value) {
        written = value !== ""
        if (notation.value === value) return
        notation.value = value
        notation.dispatchEvent(new Event("input", {bubbles: true}))
    }

    async function reset() {
        if (written) typed("")
        confirmBox.hidden = true
        choices.hidden = true
        list.box.hidden = false
        list.show(config.moves)
        await board.setPosition(config.placement, false)
        mark(board, config.last, config.check)
        status.textContent = words.choose
        board.enableMoveInput(input, side(config.player))
    }

    reset()
}

if (configNode && root && form && notation) start()
