;;; The host side of GNOME AisleRiot for one game, written for Pyramide's conformance kit
;;; (features/adapters/aisleriot_thirteen.py drives it; docs/conformance-aisleriot.md).
;;;
;;; AisleRiot's games are Scheme files that the C program `sol` runs inside Guile: the game
;;; (thirteen.go) and AisleRiot's own library (aisleriot/api.go) call a module of primitives,
;;; (aisleriot interface), that the C program defines (slots, cards, score, the lambdas) and then
;;; the C program calls the game's lambdas when the player presses, drops or clicks. This file is
;;; that host, and only that: it defines (aisleriot interface) with the same twenty names, loads
;;; Debian's compiled AisleRiot files unchanged, and plays a press-drag-drop or a click the way
;;; AisleRiot's board does (record-move, the cards taken off their slot, droppable? then
;;; button-released, end-move or discard-move, then the end-of-game test). Every rule (what may be
;;; dragged, dropped, clicked; the score; when the game is won or over) is the game's answer.
;;;
;;; Run: guile --no-auto-compile -s aisleriot_host.scm GAME.go   (with GUILE_LOAD_COMPILED_PATH
;;; naming the directory of aisleriot/api.go). One request per line on standard input, an
;;; s-expression; one answer per line on standard output, JSON:
;;;   (new)                      AisleRiot's own deal, as the program deals it
;;;   (layout ((ID CARD ...) ...)) AisleRiot's deal, then each slot ID set to its cards, top first
;;;   (drag FROM TO)             the top card of slot FROM pressed, dragged and dropped on TO
;;;   (click SLOT)               a click on SLOT
;;;   (undo)                     the Undo action
;;;   (state)                    the game now
;;;   (save) (restore)           the game kept, and put back as it was (a probe)
;;; A card is AisleRiot's own: (RANK SUIT FACE-UP), rank 1-13, suit 0 club 1 diamond 2 heart 3 spade.

(define-module (aisleriot interface)
  #:export (set-feature-word! get-feature-word set-statusbar-message-c reset-surface add-slot
            get-slot set-cards-c! set-slot-y-expansion! set-slot-x-expansion! set-lambda
            set-lambda! aisleriot-random click-to-move? update-score get-timeout set-timeout!
            delayed-call undo-set-sensitive redo-set-sensitive dealable-set-sensitive
            host-slot-count host-lambda host-feature?))

(define features 0)
(define slots (make-hash-table))
(define slot-count 0)
(define lambdas (make-vector 13 #f))
(define lambda-names
  '(new-game button-pressed button-released button-clicked button-double-clicked game-over
    winning-game hint get-options apply-options timeout droppable dealable))

(define (set-feature-word! word) (set! features word) '())
(define (get-feature-word) features)
(define (host-feature? mask) (not (zero? (logand features mask))))
(define (set-statusbar-message-c message) '())
(define (reset-surface) (hash-clear! slots) (set! slot-count 0) '())
;; slot data: (ID CARDS PLACEMENT TYPE), as api.scm's new-slot and set-tag! make it
(define (add-slot data)
  (hash-set! slots (car data) (cadr data))
  (set! slot-count (max slot-count (+ 1 (car data))))
  '())
(define (get-slot id) (list id (hash-ref slots id '())))
(define (set-cards-c! id cards) (hash-set! slots id cards) #t)
(define (set-slot-y-expansion! id value) '())
(define (set-slot-x-expansion! id value) '())
;; the C program's order: eight lambdas, then options, apply-options, timeout, and droppable? and
;; dealable? when the game's features say it has them
(define (set-lambda . given)
  (let loop ((i 0) (rest given))
    (when (and (< i 11) (pair? rest))
      (vector-set! lambdas i (car rest))
      (loop (+ i 1) (cdr rest))))
  (let* ((rest (list-tail given 11))
         (rest (if (host-feature? 1) (begin (vector-set! lambdas 11 (car rest)) (cdr rest)) rest)))
    (when (host-feature? 4) (vector-set! lambdas 12 (car rest))))
  '())
(define (set-lambda! name procedure)
  (let ((index (list-index (lambda (n) (eq? n name)) lambda-names)))
    (when index (vector-set! lambdas index procedure)))
  '())
(define (list-index pred items)
  (let loop ((i 0) (items items))
    (cond ((null? items) #f) ((pred (car items)) i) (else (loop (+ i 1) (cdr items))))))
(define (aisleriot-random range) (random range))
(define (click-to-move?) #f)
(define (update-score score) score)
(define timeout 3600)
(define (get-timeout) timeout)
(define (set-timeout! value) (set! timeout value) value)
(define (delayed-call callback) #t)
(define (undo-set-sensitive state) '())
(define (redo-set-sensitive state) '())
(define (dealable-set-sensitive state) '())
(define (host-slot-count) slot-count)
(define (host-lambda name) (vector-ref lambdas (list-index (lambda (n) (eq? n name)) lambda-names)))

(define-module (pyramide aisleriot-host)
  #:use-module (aisleriot interface)
  #:use-module (aisleriot api)
  #:use-module (ice-9 rdelim))

;; The game file is loaded as AisleRiot loads it: its top-level forms in the current module.
(set! *random-state* (random-state-from-platform))
(load-compiled (cadr (command-line)))

;; The C program's game state: begin (dealt), running (a move was made), over, won.
(define state 'begin)

(define (call name . args) (apply (host-lambda name) args))

;; aisleriot_game_test_end_of_game
(define (test-end-of-game)
  (end-move)
  (when (memq state '(begin running))
    (unless (call 'game-over)
      (set! state (if (call 'winning-game) 'won 'over)))))

;; game_scm_new_game: the game's new-game, start-game, dealt again while it has no move
(define (new-game)
  (let loop ()
    (call 'new-game)
    (start-game)
    (unless (call 'game-over) (loop)))
  (set! state 'begin))

(define (start) (when (eq? state 'begin) (set! state 'running)))

;; the board's drag (drag_begin, drop_moving_cards, drag_end) of the top card of FROM onto TO
(define (drag from to)
  (let* ((cards (get-cards from))
         (moving (if (null? cards) '() (list (car cards)))))
    (if (or (null? cards) (not (call 'button-pressed from moving)))
        'press
        (begin
          (start)
          (record-move from cards)
          (set-cards! from (cdr cards))
          (if (and (host-feature? 1) (call 'droppable from moving to)
                   (call 'button-released from moving to))
              (begin (end-move) (test-end-of-game) #f)
              (begin (discard-move) (set-cards! from cards) 'drop))))))

;; a click (button_release_event, STATUS_NOT_DRAG)
(define (click slot)
  (start)
  (record-move -1 '())
  (let ((done (call 'button-clicked slot)))
    (if done (end-move) (discard-move))
    (test-end-of-game)
    (if done #f 'click)))

;; aisleriot_game_undo_move
(define (undo!)
  (if (null? HISTORY)
      'undo
      (begin
        (when (memq state '(over won)) (set! state 'running))
        (undo)
        #f)))

;; a probe's move is taken back whole: the slots, AisleRiot's score and history, the state
(define api (resolve-module '(aisleriot api)))
(define saved #f)
(define (save!)
  (set! saved (list (map get-cards (iota (host-slot-count)))
                    (map (lambda (name) (module-ref api name)) '(SCORE HISTORY FUTURE MOVE FLIP-COUNTER))
                    state)))
(define (restore!)
  (for-each set-cards! (iota (host-slot-count)) (car saved))
  (for-each (lambda (name value) (module-set! api name value))
            '(SCORE HISTORY FUTURE MOVE FLIP-COUNTER) (cadr saved))
  (set! state (caddr saved)))

;; -- JSON out ------------------------------------------------------------------------------------
(define (object->json-string text)
  (string-append
   "\""
   (string-concatenate
    (map (lambda (c)
           (cond ((char=? c #\") "\\\"") ((char=? c #\\) "\\\\")
                 ((char<? c #\space) "?") (else (string c))))
         (string->list text)))
   "\""))
(define (json-card card)
  (string-append "[" (number->string (car card)) "," (number->string (cadr card)) ","
                 (if (caddr card) "true" "false") "]"))
(define (json-list items)
  (string-append "[" (string-join items ",") "]"))
(define (json-state)
  (string-append
   "{\"slots\":"
   (json-list (map (lambda (id) (json-list (map json-card (get-cards id))))
                   (iota (host-slot-count))))
   ",\"score\":" (number->string (get-score))
   ",\"status\":\"" (symbol->string state) "\""
   ",\"history\":" (number->string (length HISTORY)) "}"))
(define (answer refused)
  (string-append "{\"refused\":" (if refused (string-append "\"" (symbol->string refused) "\"") "null")
                 ",\"state\":" (json-state) "}"))

(define (serve request)
  (case (car request)
    ((new) (new-game) (answer #f))
    ((layout)
     (new-game)
     (for-each (lambda (slot) (set-cards! (car slot) (cdr slot))) (cadr request))
     (answer #f))
    ((drag) (answer (drag (cadr request) (caddr request))))
    ((click) (answer (click (cadr request))))
    ((undo) (answer (undo!)))
    ((state) (answer #f))
    ((save) (save!) (answer #f))
    ((restore) (restore!) (answer #f))
    (else (error "unknown request" request))))

(let loop ()
  (let ((line (read-line)))
    (unless (eof-object? line)
      (display
       (catch #t
         (lambda () (serve (with-input-from-string line read)))
         (lambda (key . args)
           (string-append "{\"error\":" (object->json-string (format #f "~a ~s" key args)) "}"))))
      (newline)
      (force-output)
      (loop))))
