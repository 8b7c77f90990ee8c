/* The board a player moves on in a server chess or Russian draughts game (issue 36; corr/web/move_board.py).
 *
 * cm-chessboard (vendored, corr/static/vendor/cm-chessboard/VENDORED.md) draws the position in place of the
 * server's diagram, from the player's side, the last move and a king in check marked. The player clicks or drags
 * a piece to its square; the keyboard's way is the list of the legal moves under the board. The script judges no
 * rule: the server listed the legal moves (the config's `moves`) and only those are taken; where several share
 * the two squares (a promotion, a draughts capture by another path) the player is asked which. The move is then
 * shown played and confirmed before it is sent (a correspondence move cannot be taken back): "Send" writes its
 * text (UCI, or c3:e5:g7) into the typed move form's notation field and submits that form, so the server takes it
 * by the typed move's path and checks it again. Without this script the typed form is the way.
 */
import {Chessboard, COLOR, INPUT_EVENT_TYPE, BORDER_TYPE} from "../vendor/cm-chessboard/src/Chessboard.js"
import {Markers, MARKER_TYPE} from "../vendor/cm-chessboard/src/extensions/markers/Markers.js"

const configNode = document.getElementById("move-board-config")
const root = document.getElementById("move-board")
const form = document.getElementById("move-form")
const notation = form ? form.querySelector("input[name=notation]") : null

function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, (all, key) => Object.hasOwn(values, key) ? String(values[key]) : all)
}

function make(tag, className, text) {
    const node = document.createElement(tag)
    if (className) node.className = className
    if (text !== undefined) node.textContent = text
    return node
}

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
    const listBox = make("p", "mb-list")
    root.append(surface, status, choices, confirmBox, listBox)
    if (diagram) diagram.style.display = "none"
    root.hidden = false

    const board = new Chessboard(surface, {
        position: config.placement,
        orientation: config.player === "black" ? COLOR.black : COLOR.white,
        assetsUrl: config.assets,
        style: {pieces: {file: config.sprite}, borderType: BORDER_TYPE.none, animationDuration: 150},
        extensions: [{class: Markers, props: {autoMarkers: MARKER_TYPE.frame}}]
    })

    function markPosition() {
        board.removeMarkers()
        config.last.forEach((square) => board.addMarker(MARKER_TYPE.square, square))
        if (config.check) board.addMarker(MARKER_TYPE.circleDanger, config.check)
    }

    function movesFrom(square) {
        return config.moves.filter((m) => m.from === square)
    }

    function label(move) {
        return move.promotion ? move.label + " (" + config.promotions[move.promotion] + ")" : move.label
    }

    // --- the keyboard's way: the legal moves as a list ----------------------------------------------------------
    const select = make("select", "mb-select")
    select.id = "move-board-list"
    const listLabel = make("label", "", words.list)
    listLabel.htmlFor = select.id
    select.append(new Option(words.list_none, ""))
    config.moves.forEach((move, index) => select.append(new Option(label(move), String(index))))
    const playButton = make("button", "secondary mb-play", words.play)
    playButton.type = "button"
    playButton.addEventListener("click", () => {
        if (select.value !== "") chosen(config.moves[Number(select.value)], true)
    })
    listBox.append(listLabel, " ", select, " ", playButton)

    // --- a move chosen: asked which when several fit, then shown and confirmed ----------------------------------
    function ask(candidates) {
        choices.replaceChildren(make("span", "mb-which", words.which))
        const order = (move) => "qrbn".indexOf(move.promotion)  // a promotion: the queen first
        candidates.slice().sort((a, b) => order(a) - order(b)).forEach((move) => {
            const button = make("button", "secondary mb-choice", label(move))
            button.type = "button"
            button.dataset.notation = move.notation
            button.addEventListener("click", () => {
                choices.hidden = true
                chosen(move, true)
            })
            choices.append(" ", button)
        })
        const again = make("button", "secondary mb-again", words.again)
        again.type = "button"
        again.addEventListener("click", reset)
        choices.append(" ", again)
        choices.hidden = false
        choices.querySelector("button").focus()
    }

    async function chosen(move, animated) {
        board.disableMoveInput()
        listBox.hidden = true
        await board.setPosition(move.after, animated)
        board.removeMarkers()
        board.addMarker(MARKER_TYPE.square, move.from)
        board.addMarker(MARKER_TYPE.square, move.to)
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

    async function reset() {
        confirmBox.hidden = true
        choices.hidden = true
        listBox.hidden = false
        select.value = ""
        await board.setPosition(config.placement, false)
        markPosition()
        status.textContent = words.choose
        board.enableMoveInput(input, config.player === "black" ? COLOR.black : COLOR.white)
    }

    function input(event) {
        switch (event.type) {
        case INPUT_EVENT_TYPE.moveInputStarted:
            if (!movesFrom(event.squareFrom).length) {
                status.textContent = words.not_legal
                return false
            }
            status.textContent = fill(words.chosen, {square: event.squareFrom})
            return true
        case INPUT_EVENT_TYPE.validateMoveInput: {
            const fits = movesFrom(event.squareFrom).filter((m) => m.to === event.squareTo)
            if (!fits.length) {
                status.textContent = words.not_legal
                return false
            }
            // After this answer the library draws the piece on its square: the rest (captures, the rook of a
            // castling, the piece promoted to) is the placement the server gave, drawn once the move is chosen.
            setTimeout(() => fits.length === 1 ? chosen(fits[0], false) : ask(fits))
            return true
        }
        case INPUT_EVENT_TYPE.moveInputCanceled:
            status.textContent = words.choose
            return undefined
        default:
            return undefined
        }
    }

    reset()
}

if (configNode && root && form && notation) start()
