;;; infill.el --- Fill-in-the-middle completions from DeepSeek through infill-lsp  -*- lexical-binding: t; -*-

;; Version: 0.0.0
;; Package-Requires: ((emacs "29.1"))
;; Keywords: convenience, languages, tools
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; infill-lsp is a language server that answers `textDocument/completion'
;; (popup menus) and `textDocument/inlineCompletion' (ghost text) with
;; DeepSeek's fill-in-the-middle completions.  This file wires it into the
;; two LSP clients of Emacs:
;;
;; Eglot (built in) manages a buffer with ONE server.  `infill-eglot-setup'
;; puts an entry for `infill-modes' in front of `eglot-server-programs'
;; whose contact, `infill-eglot-contact', runs the server Eglot would
;; otherwise have started for the buffer (say typescript-language-server)
;; together with infill-lsp behind the LSP multiplexer rass
;; (rassumfrassum), so that server keeps working; when no such server is
;; installed, infill-lsp runs alone.
;;
;;   (with-eval-after-load 'eglot (infill-eglot-setup))
;;
;; lsp-mode runs several servers per buffer: once lsp-mode is loaded, this
;; file registers infill-lsp as an add-on client (`:add-on? t'), started
;; next to the buffer's usual server.  lsp-mode 10.0 and later show its
;; `textDocument/inlineCompletion' answers as ghost text
;; (`lsp-inline-completion-mode', turned on by itself where a server offers
;; inline completions).
;;
;; With (:nextEdit (:enabled t)) in `infill-settings', the server also
;; predicts the edit that follows yours (a rename carried to the other
;; uses...) and offers it as a code action of kind refactor.rewrite:
;; `eglot-code-action-rewrite' (bind it to a key) or `eglot-code-actions',
;; `lsp-execute-code-action' with lsp-mode.  Asked again and again from
;; where you are, it walks through the edits, nearest first.
;;
;; Both answer infill-lsp's `infill/typeDefinitions' (where the type of
;; the value before a `.' is declared) through the buffer's usual server:
;; lsp-mode asks the buffer's other workspaces, Eglot asks the server behind
;; rass (see `infill-type-definitions').
;;
;; `M-x infill-status' shows what the buffer's server counted: requests,
;; tokens, the estimated cost, suggestions shown and taken, what is still
;; there of what was taken, and what that comes to per dollar, by language
;; and with or without repository context.
;;
;; The API key is read from the environment Emacs runs in: DEEPSEEK_API_KEY.
;; See editors/README.md in the infill repository for the details.

;;; Code:

(require 'cl-lib)
(require 'seq)
(require 'subr-x)

(defgroup infill nil
  "Fill-in-the-middle completions from DeepSeek through infill-lsp."
  :group 'tools
  :prefix "infill-")

(defcustom infill-command '("infill-lsp" "--stdio")
  "How to start the infill language server: PROGRAM and its ARGS."
  :type '(repeat string))

(defcustom infill-settings nil
  "Settings for infill-lsp, as a plist of its setting names and values.
For example (:lineMode \"single-line\" :debounceMs 50).  Sent as the
`infill' section of initializationOptions; settings left out keep their
defaults.  Use :json-false for false.  The settings are listed in the
infill README: provider (deepseek, sim, ollama, llamacpp, codestral,
openai-compatible), model, baseUrl, apiKeyEnv, maxTokens, temperature,
debounceMs, contextTokens, lineMode, enable, languages, timeoutMs,
logLevel, metrics, context, prices, usage and nextEdit.  With Eglot, an
`infill' section in `eglot-workspace-configuration' overrides these.
For next edits as code actions: (:nextEdit (:enabled t))."
  :type 'plist)

(defcustom infill-modes
  '((c-mode . "c") (c-ts-mode . "c")
    (c++-mode . "cpp") (c++-ts-mode . "cpp")
    (go-mode . "go") (go-ts-mode . "go")
    (js-mode . "javascript") (js-ts-mode . "javascript")
    (lua-mode . "lua") (lua-ts-mode . "lua")
    (python-mode . "python") (python-ts-mode . "python")
    (rust-mode . "rust") (rust-ts-mode . "rust")
    (typescript-mode . "typescript") (typescript-ts-mode . "typescript")
    (tsx-ts-mode . "typescriptreact"))
  "Major modes where infill-lsp runs, with the LSP language id of each."
  :type '(alist :key-type (symbol :tag "Major mode")
                :value-type (string :tag "LSP language id")))

(defcustom infill-type-definitions t
  "Whether to answer infill-lsp's `infill/typeDefinitions'.
infill-lsp asks where the type of the value before a `.' (`->', `::')
is declared, so that its members reach the prompt.  With lsp-mode the
question goes to the buffer's other workspaces as
`textDocument/typeDefinition' (or `textDocument/definition' for one
without it or that finds no type there); with Eglot, to the server
behind the multiplexer (see `infill-eglot-contact').  The capability
is advertised when infill-lsp starts (with lsp-mode: when lsp-mode
loads infill.el's client), so set this before."
  :type 'boolean)

(defcustom infill-type-definitions-timeout 3.0
  "Seconds to wait for the usual server's answer to a type definition.
What is still unanswered then is answered empty.  infill-lsp itself
waits much less (its `context.typeDefinitionMs' setting) and keeps a
later answer for its next request at that place.  With Eglot the wait
blocks Emacs, but input ends it at once."
  :type 'number)

;;;; Eglot

(defvar eglot-server-programs)

(defcustom infill-eglot-multiplexer '("rass")
  "LSP multiplexer that runs infill-lsp next to another server for Eglot.
PROGRAM and the ARGS before its server list; `infill-eglot-contact'
appends \"--\", the other server's command, \"--\" and `infill-command'.
The default is rass, from the rassumfrassum package (pip install
rassumfrassum)."
  :type '(repeat string))

(defcustom infill-eglot-companion 'usual
  "The server `infill-eglot-contact' runs next to infill-lsp.
`usual': the server Eglot would start for the buffer without infill (the
first entry of `eglot-server-programs' for its major mode that is not
infill's).  nil: none, infill-lsp alone.  Or an alist of
\(MAJOR-MODE . (PROGRAM ARGS...)) for servers of your choice; modes not
in it get the usual server."
  :type '(choice (const :tag "The server Eglot would start" usual)
                 (const :tag "None: infill-lsp alone" nil)
                 (alist :key-type (symbol :tag "Major mode")
                        :value-type (repeat :tag "Command" string))))

(defun infill-initialization-options (&optional _server)
  "The initializationOptions for infill-lsp: `infill-settings' under `infill'.
Nested under a key of its own, so a server sharing the multiplexer's
initialize request ignores it."
  (list :infill (or infill-settings (make-hash-table))))

(defun infill--eglot-entry-modes (modes)
  "The major-mode symbols of an `eglot-server-programs' key MODES."
  (cond ((symbolp modes) (list modes))
        ((keywordp (cadr modes)) (list (car modes)))
        (t (mapcar (lambda (spec) (if (consp spec) (car spec) spec)) modes))))

(defun infill--eglot-usual-entry (mode)
  "The entry of `eglot-server-programs' Eglot would use for MODE without infill."
  (seq-find (lambda (entry)
              (and (not (eq (cdr entry) #'infill-eglot-contact))
                   (seq-some (lambda (m) (provided-mode-derived-p mode m))
                             (infill--eglot-entry-modes (car entry)))))
            eglot-server-programs))

(defun infill--eglot-usual-contact (mode interactive project)
  "The contact Eglot would use for MODE without infill, or nil.
INTERACTIVE and PROJECT are passed to a contact function."
  (let ((contact (cdr (infill--eglot-usual-entry mode))))
    (if (functionp contact)
        ;; `eglot-alternatives' signals when none of its programs is installed.
        (ignore-errors (funcall contact interactive project))
      contact)))

(defun infill--eglot-entries ()
  "Entries for `eglot-server-programs' that start infill-lsp for `infill-modes'.
Modes that one built-in entry serves together (JavaScript and
TypeScript, C and C++) share an entry, hence a server per project, as
without infill: behind the multiplexer runs that entry's server."
  (let (groups)
    (dolist (mode infill-modes)
      (let* ((key (or (infill--eglot-usual-entry (car mode)) (car mode)))
             (group (assq key groups))
             (spec (list (car mode) :language-id (cdr mode))))
        (if group
            (setcdr group (cons spec (cdr group)))
          (push (list key spec) groups))))
    (mapcar (lambda (group) (cons (reverse (cdr group)) #'infill-eglot-contact))
            (reverse groups))))

(defun infill--eglot-command (contact)
  "PROGRAM and ARGS of an Eglot CONTACT, or nil when it is not a program.
Keyword arguments such as :initializationOptions are dropped: behind the
multiplexer, initializationOptions are infill's."
  (let ((contact (if (and (consp contact) (symbolp (car contact)) (car contact)
                          (not (keywordp (car contact))))
                     (cdr contact) ; (CLASS . INITARGS)
                   contact)))
    (when (and (consp contact) (stringp (car contact))
               (not (memq :autoport contact)) (not (integerp (cadr contact))))
      (seq-take-while #'stringp contact))))

(defun infill--eglot-companion (mode interactive project)
  "The command of the server to run next to infill-lsp for MODE, or nil.
INTERACTIVE and PROJECT are passed to a contact function."
  (pcase infill-eglot-companion
    ('nil nil)
    (companions
     (or (and (consp companions)
              (cdr (seq-find (lambda (c) (provided-mode-derived-p mode (car c))) companions)))
         (let ((command (infill--eglot-command (infill--eglot-usual-contact mode interactive project))))
           (and command (executable-find (car command)) command))))))

;;;###autoload
(defun infill-eglot-contact (&optional interactive project)
  "Eglot contact for the current buffer: infill-lsp, next to its usual server.
When `infill-eglot-companion' names a server for the buffer's major
mode and that server is installed, run both behind
`infill-eglot-multiplexer' (the usual server first, so requests only one
server can answer go to it); otherwise run infill-lsp alone.  The
connection is an `infill-eglot-server', which answers infill-lsp's
`infill/typeDefinitions' (see `infill-type-definitions').
INTERACTIVE and PROJECT are as in `eglot-server-programs'."
  (let ((companion (infill--eglot-companion major-mode interactive project)))
    (when (and companion (not (executable-find (car infill-eglot-multiplexer))))
      (user-error "Running infill-lsp next to %s needs %s (pip install rassumfrassum, see \
`infill-eglot-multiplexer'), or set `infill-eglot-companion' to nil to run infill-lsp alone"
                  (car companion) (car infill-eglot-multiplexer)))
    `(infill-eglot-server
      ,@(if companion
            `(,@infill-eglot-multiplexer "--" ,@companion "--" ,@infill-command)
          infill-command)
      :initializationOptions infill-initialization-options)))

;;;###autoload
(defun infill-eglot-setup ()
  "Make Eglot start infill-lsp for `infill-modes' (see `infill-eglot-contact').
The entries go in front of `eglot-server-programs', so they win over the
ones already there; calling this again replaces them.  Modes served
together by one entry already there keep sharing a server."
  (require 'eglot)
  (setq eglot-server-programs
        (append (infill--eglot-entries)
                (seq-remove (lambda (entry) (eq (cdr entry) #'infill-eglot-contact))
                            eglot-server-programs))))

;;;; lsp-mode

(declare-function lsp-register-client "ext:lsp-mode" (client))
(declare-function make-lsp-client "ext:lsp-mode" (&rest args))
(declare-function lsp-stdio-connection "ext:lsp-mode" (command &optional test-command))

(defun infill--lsp-mode-activate-p (_file-name mode)
  "Whether lsp-mode should start infill-lsp for a buffer in major MODE."
  (seq-some (lambda (m) (provided-mode-derived-p mode (car m))) infill-modes))

(defun infill-lsp-mode-register ()
  "Register infill-lsp with lsp-mode as an add-on client, server id `infill'.
Add-on clients start next to the buffer's usual server.  Done when
lsp-mode loads."
  (let ((handlers (make-hash-table :test #'equal)))
    (puthash "infill/typeDefinitions" #'infill--lsp-mode-type-definitions handlers)
    (lsp-register-client
     (make-lsp-client
      :new-connection (lsp-stdio-connection (lambda () infill-command))
      :activation-fn #'infill--lsp-mode-activate-p
      :add-on? t
      :priority -2
      :server-id 'infill
      :completion-in-comments? t
      :custom-capabilities (and infill-type-definitions
                                '((experimental . ((infill . ((typeDefinitions . t)))))))
      :async-request-handlers handlers
      :initialization-options #'infill-initialization-options))))

(with-eval-after-load 'lsp-mode
  (infill-lsp-mode-register))

;;;; Types from the editor: infill/typeDefinitions

(declare-function eglot--capabilities "eglot" (server))
(declare-function lsp--uri-to-path "ext:lsp-mode" (uri))
(declare-function lsp--workspace-client "ext:lsp-mode" (workspace))
(declare-function lsp--client-server-id "ext:lsp-mode" (client))
(declare-function lsp--workspace-server-capabilities "ext:lsp-mode" (workspace))
(declare-function lsp-request-async "ext:lsp-mode" (method params callback &rest args))
(defvar lsp--buffer-workspaces)

(defun infill--list (value)
  "VALUE as a list: a vector's elements, a list as is, else nil."
  (cond ((vectorp value) (append value nil))
        ((listp value) value)))

(defun infill--object-p (value)
  "Whether VALUE is a JSON object as a plist or hash table."
  (or (hash-table-p value) (and (consp value) (keywordp (car value)))))

(defun infill--location (result)
  "The first location of a definition RESULT, as (URI . RANGE), or nil.
RESULT is a Location, a list of them or of LocationLinks (the
target's selection range, its name, is taken), as JSON objects."
  (let ((item (if (infill--object-p result) result (car (infill--list result)))))
    (when (infill--object-p item)
      (let ((uri (or (infill--get item "targetUri") (infill--get item "uri")))
            (range (or (infill--get item "targetSelectionRange") (infill--get item "targetRange")
                       (infill--get item "range"))))
        (and (stringp uri) (infill--object-p range) (cons uri range))))))

(defun infill--column (text character from to)
  "CHARACTER, a column of line TEXT in encoding FROM, in encoding TO.
Encodings are LSP's: \"utf-8\", \"utf-16\" or \"utf-32\"."
  (if (or (equal from to) (not (stringp text)))
      character
    (let ((chars 0) (units 0))
      ;; Walk to CHARACTER in FROM's units, counting code points.
      (while (and (< chars (length text)) (< units character))
        (setq units (+ units (infill--width (aref text chars) from))
              chars (1+ chars)))
      (cl-loop for i below chars sum (infill--width (aref text i) to)))))

(defun infill--width (char encoding)
  "How many code units of ENCODING the character CHAR takes."
  (pcase encoding
    ("utf-8" (length (encode-coding-string (string char) 'utf-8 t)))
    ("utf-16" (if (>= char #x10000) 2 1))
    (_ 1)))

(defun infill--line-text (uri line)
  "Line LINE (0-based) of the file URI names: its buffer's, else read from disk."
  (let* ((file (and (string-prefix-p "file://" uri) (url-unhex-string (substring uri 7))))
         (buffer (and file (find-buffer-visiting file))))
    (cond (buffer (with-current-buffer buffer
                    (save-restriction
                      (widen)
                      (save-excursion
                        (goto-char (point-min))
                        (and (zerop (forward-line line))
                             (buffer-substring-no-properties (line-beginning-position)
                                                             (line-end-position)))))))
          ((and file (file-readable-p file))
           (with-temp-buffer
             (insert-file-contents file)
             (goto-char (point-min))
             (and (zerop (forward-line line))
                  (buffer-substring-no-properties (line-beginning-position) (line-end-position))))))))

(defun infill--convert-position (position text from to)
  "POSITION (a JSON object) with its character from encoding FROM to TO.
TEXT is its line, or nil to read none (then it is kept as it is)."
  (let ((line (infill--get position "line")))
    (list :line line
          :character (infill--column text (infill--get position "character") from to))))

(defun infill--location-object (location from to)
  "LOCATION (URI . RANGE) as a Location plist, its range from FROM to TO."
  (let* ((uri (car location))
         (range (cdr location))
         (start (infill--get range "start"))
         (end (or (infill--get range "end") start))
         (text (unless (equal from to) (infill--line-text uri (infill--get start "line")))))
    (list :uri uri
          :range (list :start (infill--convert-position start text from to)
                       :end (infill--convert-position
                             end (if (eql (infill--get end "line") (infill--get start "line")) text
                                   (unless (equal from to) (infill--line-text uri (infill--get end "line"))))
                             from to)))))

;;;;; Eglot: through the multiplexer

(defun infill--with-infill-capability (experimental)
  "EXPERIMENTAL client capabilities (a plist, hash table or nil) with infill's.
infill's: `infill/typeDefinitions' answered."
  (let ((ours '(:typeDefinitions t)))
    (cond ((and (hash-table-p experimental) (> (hash-table-count experimental) 0))
           (let ((copy (copy-hash-table experimental)))
             (puthash "infill" ours copy)
             copy))
          ((consp experimental) (append experimental (list :infill ours)))
          (t (list :infill ours)))))

(with-eval-after-load 'eglot
  ;; Evaluated once Eglot (and with it EIEIO) is loaded: compiled, `defclass' would need EIEIO at compile time.
  (eval '(defclass infill-eglot-server (eglot-lsp-server) ()
           :documentation "An Eglot connection to infill-lsp, alone or behind rass.")
        t)

  (cl-defmethod eglot-client-capabilities ((server infill-eglot-server))
    "Eglot's capabilities for SERVER, and `infill/typeDefinitions'.
See `infill-type-definitions'."
    (let ((capabilities (cl-call-next-method server)))
      (if infill-type-definitions
          (plist-put capabilities :experimental
                     (infill--with-infill-capability (plist-get capabilities :experimental)))
        capabilities)))

  (cl-defmethod eglot-handle-request ((server infill-eglot-server) (_method (eql infill/typeDefinitions))
                                      &key textDocument positions &allow-other-keys)
    "Answer SERVER's `infill/typeDefinitions' at POSITIONS of TEXTDOCUMENT.
See `infill-eglot-type-definitions'."
    (infill-eglot-type-definitions server (plist-get textDocument :uri) positions)))

(defun infill-eglot-type-definitions (server uri positions)
  "One Location (or nil) per position of POSITIONS in URI, asked of SERVER.
Behind rass, `textDocument/typeDefinition' goes to the servers that
offer it, the usual one, not infill-lsp; infill-lsp alone offers none,
and nothing is asked.  A `textDocument/definition' follows where no type
is found.  Positions go and come in the encoding Eglot negotiated with
SERVER (rass makes it UTF-16 for every server behind it).  Each question
waits `infill-type-definitions-timeout' at most, and input ends it."
  (let ((capabilities (eglot--capabilities server)))
    (vconcat
     (mapcar
      (lambda (position)
        (let ((found (seq-some
                      (lambda (method)
                        (and (infill--get capabilities (concat (substring (symbol-name method) 14) "Provider"))
                             (infill--eglot-locate server method uri position)))
                      '(:textDocument/typeDefinition :textDocument/definition))))
          (and found (list :uri (car found) :range (cdr found)))))
      (infill--list positions)))))

(defun infill--eglot-locate (server method uri position)
  "The first location SERVER answers METHOD with at POSITION of URI, or nil."
  (condition-case nil
      (infill--location
       (jsonrpc-request server method `(:textDocument (:uri ,uri) :position ,position)
                        :timeout infill-type-definitions-timeout
                        :cancel-on-input t))
    (error nil)))

;;;;; lsp-mode: the buffer's other workspaces

(defvar lsp--cur-workspace)

(defun infill--lsp-mode-peers (buffer)
  "The workspaces of BUFFER that are not infill-lsp's."
  (seq-remove (lambda (workspace)
                (eq (lsp--client-server-id (lsp--workspace-client workspace)) 'infill))
              (buffer-local-value 'lsp--buffer-workspaces buffer)))

(defun infill--encoding (workspace)
  "The position encoding WORKSPACE's server negotiated (default UTF-16)."
  (or (infill--get (lsp--workspace-server-capabilities workspace) "positionEncoding") "utf-16"))

(defun infill--buffer-line (buffer line)
  "The text of line LINE (0-based) of BUFFER."
  (with-current-buffer buffer
    (save-restriction
      (widen)
      (save-excursion
        (goto-char (point-min))
        (forward-line line)
        (buffer-substring-no-properties (line-beginning-position) (line-end-position))))))

(defun infill--lsp-mode-type-definitions (workspace params callback)
  "Answer infill-lsp's `infill/typeDefinitions' PARAMS through CALLBACK.
WORKSPACE is infill-lsp's.  Each position goes to every other workspace
of the buffer at once (see `infill--lsp-mode-locate'); the first
location found wins.  After `infill-type-definitions-timeout' seconds
what is unanswered is answered null."
  (let* ((uri (infill--get params "textDocument" "uri"))
         (positions (infill--list (infill--get params "positions")))
         (file (and (stringp uri) (ignore-errors (lsp--uri-to-path uri))))
         (buffer (and file (find-buffer-visiting file)))
         (encoding (infill--encoding workspace))
         (answers (make-vector (length positions) nil))
         (open (length positions))
         (done nil)
         (timer nil))
    (cl-labels ((finish ()
                  (unless done
                    (setq done t)
                    (when timer (cancel-timer timer))
                    (funcall callback answers))))
      (if (or (not buffer) (zerop open))
          (finish)
        (setq timer (run-at-time infill-type-definitions-timeout nil #'finish))
        (let ((peers (infill--lsp-mode-peers buffer)))
          (seq-do-indexed
           (lambda (position i)
             (infill--lsp-mode-locate
              buffer uri peers position encoding
              (lambda (location)
                (unless done
                  (aset answers i location)
                  (setq open (1- open))
                  (when (zerop open) (finish))))))
           positions))))))

(defun infill--lsp-mode-locate (buffer uri peers position encoding settle)
  "Ask PEERS, workspaces of BUFFER (visiting URI), where the type at POSITION is.
POSITION is in ENCODING, infill-lsp's; each peer gets it in its own.
`textDocument/typeDefinition', or `textDocument/definition' for a peer
without it or that finds no type there.  SETTLE is called once: with
the first Location found (a plist, in ENCODING), or with nil when every
peer answered none."
  (let ((text (infill--buffer-line buffer (infill--get position "line")))
        (waiting 1)
        (settled nil))
    (cl-labels
        ((found (location)
           (unless settled
             (setq settled t)
             (funcall settle location)))
         (answered ()
           (setq waiting (1- waiting))
           (when (zerop waiting) (found nil)))
         (ask (peer method)
           (let ((theirs (infill--encoding peer))
                 (capabilities (lsp--workspace-server-capabilities peer)))
             (setq waiting (1+ waiting))
             (condition-case nil
                 (with-current-buffer buffer
                   (let ((lsp--cur-workspace peer))
                     (lsp-request-async
                      method
                      (list :textDocument (list :uri uri)
                            :position (infill--convert-position position text encoding theirs))
                      (lambda (result)
                        (let ((location (infill--location result)))
                          (cond (location (found (infill--location-object location theirs encoding)))
                                ((and (equal method "textDocument/typeDefinition")
                                      (infill--get capabilities "definitionProvider"))
                                 (ask peer "textDocument/definition"))))
                        (answered))
                      :mode 'detached
                      :error-handler (lambda (&rest _) (answered))
                      :cancel-handler (lambda (&rest _) (answered)))))
               (error (answered))))))
      (dolist (peer peers)
        (let ((capabilities (lsp--workspace-server-capabilities peer)))
          (cond ((infill--get capabilities "typeDefinitionProvider")
                 (ask peer "textDocument/typeDefinition"))
                ((infill--get capabilities "definitionProvider")
                 (ask peer "textDocument/definition")))))
      (answered))))

;;;; Usage and cost

(declare-function eglot-current-server "eglot" ())
(declare-function jsonrpc-request "jsonrpc" (connection method params &rest args))
(declare-function lsp-find-workspace "ext:lsp-mode" (server-id &optional file-name))
(declare-function lsp-request "ext:lsp-mode" (method params &rest args))
(defvar lsp--cur-workspace)

(defun infill--get (object &rest keys)
  "The value at KEYS (strings) in OBJECT, a JSON object as a plist or hash table."
  (dolist (key keys object)
    (setq object (cond ((hash-table-p object) (gethash key object))
                       ((listp object) (plist-get object (intern (concat ":" key))))))))

(defun infill--number (value)
  "VALUE when it is a number, else nil (JSON null, false or missing)."
  (and (numberp value) value))

(defun infill--format-count (n)
  "N with thousands separators: 12,345."
  (let ((digits (number-to-string (round n))) (out ""))
    (while (> (length digits) 3)
      (setq out (concat "," (substring digits -3) out)
            digits (substring digits 0 -3)))
    (concat digits out)))

(defun infill--format-cost (usd)
  "An estimated cost USD in dollars, with the digits `infill usage' prints.
$0, then six decimals below a cent, four below a dollar, two from a dollar on."
  (cond ((zerop usd) "$0")
        ((< usd 0.01) (format "$%.6f" usd))
        ((< usd 1) (format "$%.4f" usd))
        (t (format "$%.2f" usd))))

(defun infill--format-percent (ratio)
  "RATIO (0..1, or nil) as a whole percentage."
  (if (numberp ratio) (format "%d %%" (round (* ratio 100))) "–"))

(defun infill--percentiles (latency)
  "The p50/p90 of LATENCY (a JSON object), or – when there are none."
  (let ((p50 (infill--number (infill--get latency "p50")))
        (p90 (infill--number (infill--get latency "p90"))))
    (if p50 (format "%d/%d ms" (round p50) (round p90)) "–")))

(defun infill--format-horizon (seconds)
  "A retention horizon SECONDS as `infill usage' prints it: 30 s, 2 min, 1 h."
  (cond ((or (< seconds 60) (/= (mod seconds 60) 0)) (format "%s s" (infill--format-number seconds)))
        ((or (< seconds 3600) (/= (mod seconds 3600) 0)) (format "%d min" (/ seconds 60)))
        (t (format "%d h" (/ seconds 3600)))))

(defun infill--format-number (n)
  "N without a trailing .0: 30, 0.5."
  (if (= n (truncate n)) (number-to-string (truncate n)) (number-to-string n)))

(defun infill--format-per-unit (value &optional decimals)
  "VALUE (a number or nil) with separators, or DECIMALS below 1000, or –."
  (cond ((not (numberp value)) "–")
        ((and decimals (< value 1000)) (format (format "%%.%df" decimals) value))
        (t (infill--format-count value))))

(defun infill--kept-line (figures)
  "What is kept of FIGURES' characters taken at each horizon, as one line."
  (format "  kept where it went: %s"
          (mapconcat
           (lambda (r)
             (let ((checked (or (infill--number (infill--get r "checkedChars")) 0)))
               (if (zerop checked)
                   (format "%s –" (infill--format-horizon (infill--get r "seconds")))
                 (format "%s %s (%s of %s chars)"
                         (infill--format-horizon (infill--get r "seconds"))
                         (infill--format-percent (infill--number (infill--get r "rate")))
                         (infill--format-count (infill--get r "retainedChars"))
                         (infill--format-count checked)))))
           (infill--get figures "retained") ", ")))

(defun infill--yield-line (figures)
  "FIGURES' characters taken and kept per dollar and per 1k output tokens.
Kept at the longest retention horizon."
  (let* ((retained (infill--get figures "retained"))
         (last (and (> (length retained) 0) (elt retained (1- (length retained)))))
         (horizon (and last (infill--format-horizon (infill--get last "seconds")))))
    (format "  per dollar: %s chars taken%s; per 1k output tokens: %s taken%s"
            (infill--format-per-unit (infill--number (infill--get figures "acceptedCharsPerDollar")))
            (if last (format ", %s kept at %s"
                             (infill--format-per-unit (infill--number (infill--get last "perDollar")))
                             horizon)
              "")
            (infill--format-per-unit (infill--number (infill--get figures "acceptedCharsPer1kOutputTokens")) 1)
            (if last (format ", %s kept"
                             (infill--format-per-unit (infill--number (infill--get last "per1kOutputTokens")) 1))
              ""))))

(defconst infill--context-arms
  '(("on" . "with context") ("holdout" . "held out") ("off" . "context off"))
  "How `infill-status' names the context arms of `infill.status'.")

(defun infill--split-line (title groups key &optional names)
  "One line under TITLE of GROUPS, a vector of objects of KEY and figures.
Each group's requests, suggestions taken of those shown and characters
taken.  NAMES maps a KEY's value to its words."
  (and (> (length groups) 0)
       (format "  %s: %s" title
               (mapconcat
                (lambda (g)
                  (let ((f (infill--get g "figures"))
                        (name (infill--get g key)))
                    (format "%s %s requests, %d of %d taken, %s chars"
                            (or (cdr (assoc name names)) name)
                            (infill--format-count (or (infill--number (infill--get f "requests")) 0))
                            (+ (or (infill--number (infill--get f "accepted")) 0)
                               (or (infill--number (infill--get f "acceptedPartly")) 0))
                            (or (infill--number (infill--get f "shown")) 0)
                            (infill--format-count (or (infill--number (infill--get f "acceptedChars")) 0)))))
                groups "; "))))

(defun infill--next-edits-line (figures)
  "Next edits' FIGURES (`nextEdits' of `infill.status') as one line, or nil.
Nil until the server asked for any or showed any: their requests, the
estimated cost, edits taken of those shown, dismissed, and the characters
applied with the share still there at the longest horizon checked."
  (let* ((n (lambda (key) (or (infill--number (infill--get figures key)) 0)))
         (kept (and figures
                    (car (last (seq-filter
                                (lambda (r) (> (or (infill--number (infill--get r "checkedChars")) 0) 0))
                                (infill--get figures "retained")))))))
    (and figures
         (or (> (funcall n "requests") 0) (> (funcall n "shown") 0))
         (concat
          (format "  next edits: %s request%s, est. %s, taken %s of %s (%s), %s dismissed"
                  (infill--format-count (funcall n "requests"))
                  (if (= (funcall n "requests") 1) "" "s")
                  (infill--format-cost (funcall n "cost"))
                  (infill--format-count (funcall n "accepted"))
                  (infill--format-count (funcall n "shown"))
                  (infill--format-percent (infill--number (infill--get figures "acceptanceRate")))
                  (infill--format-count (funcall n "dismissed")))
          (if kept
              (format "; %s chars applied, %s kept at %s"
                      (infill--format-count (infill--get kept "checkedChars"))
                      (infill--format-percent (infill--number (infill--get kept "rate")))
                      (infill--format-horizon (infill--get kept "seconds")))
            "")))))

(defun infill-status-lines (status)
  "The usage figures STATUS (what `infill.status' answers) as lines of text."
  (let* ((total (infill--get status "total"))
         (n (lambda (key) (or (infill--number (infill--get total key)) 0)))
         (header '("requests" "prompt tokens" "cached" "output tokens" "est. cost" "shown" "taken" "rate"))
         (row (list (infill--format-count (funcall n "requests"))
                    (infill--format-count (+ (funcall n "cacheHitTokens") (funcall n "cacheMissTokens")))
                    (infill--format-percent (infill--number (infill--get total "cacheHitRatio")))
                    (infill--format-count (funcall n "completionTokens"))
                    (concat (infill--format-cost (funcall n "cost"))
                            (if (> (funcall n "unpricedTokens") 0) "*" ""))
                    (infill--format-count (funcall n "shown"))
                    (infill--format-count (+ (funcall n "accepted") (funcall n "acceptedPartly")))
                    (infill--format-percent (infill--number (infill--get total "acceptanceRate")))))
         (widths (cl-mapcar (lambda (a b) (max (string-width a) (string-width b))) header row))
         (line (lambda (cells)
                 (concat "  " (mapconcat #'identity
                                         (cl-mapcar (lambda (cell width) (string-pad cell width nil t))
                                                    cells widths)
                                         "  "))))
         (file (infill--get status "log" "file")))
    (delq nil
          (list (format "usage of this server since %s UTC, %s (costs are estimates at list prices):"
                        (substring (or (infill--get status "server" "startedAt") "????????????????") 11 16)
                        (infill--get status "model"))
                (funcall line header)
                (funcall line row)
                (format "  taken: %d whole, %d in part, %s characters; latency p50/p90: %s to a new suggestion, %s upstream"
                        (funcall n "accepted") (funcall n "acceptedPartly")
                        (infill--format-count (funcall n "acceptedChars"))
                        (infill--percentiles (infill--get total "latency" "endToEnd"))
                        (infill--percentiles (infill--get total "latency" "upstream")))
                (and (> (length (infill--get total "retained")) 0) (infill--kept-line total))
                (and (> (length (infill--get total "retained")) 0) (infill--yield-line total))
                (infill--split-line "by language" (infill--get status "languages") "language")
                (infill--split-line "by context" (infill--get status "contexts") "context"
                                    infill--context-arms)
                (infill--next-edits-line (infill--get status "nextEdits"))
                (and (> (funcall n "unpricedTokens") 0)
                     (format "  * %s tokens of models without a price are not in the cost"
                             (infill--format-count (funcall n "unpricedTokens"))))
                (and (stringp file) (format "  days' totals: %s (`infill usage' prints them)" file))))))

(defconst infill--status-params
  '(:command "infill.status" :arguments [(:message :json-false)])
  "The `workspace/executeCommand' parameters asking for the figures alone.")

(defconst infill--status-unreachable
  "Behind rass, Eglot's commands go to the first server, not to infill-lsp; \
`infill usage' in a shell prints the day's totals"
  "Why `infill.status' may get no answer from infill-lsp.")

(defun infill-status-data ()
  "Ask the current buffer's infill-lsp for its usage figures (`infill.status').
Through Eglot when it manages the buffer, else through lsp-mode's
`infill' client.  Signals a `user-error' when neither runs infill-lsp,
or when the answer is not infill-lsp's."
  (let* ((eglot-server (and (fboundp 'eglot-current-server) (eglot-current-server)))
         (workspace (and (not eglot-server) (fboundp 'lsp-find-workspace)
                         (lsp-find-workspace 'infill (buffer-file-name))))
         (status
          (cond
           (eglot-server
            (condition-case err
                (jsonrpc-request eglot-server :workspace/executeCommand infill--status-params)
              (error (user-error "No answer to infill.status (%s).  %s"
                                 (error-message-string err) infill--status-unreachable))))
           (workspace
            (let ((lsp--cur-workspace workspace))
              (lsp-request "workspace/executeCommand" infill--status-params)))
           (t (user-error "infill-lsp is not running for this buffer (start it with Eglot or lsp-mode)")))))
    (unless (infill--get status "total")
      (user-error "The answer to infill.status is not infill-lsp's.  %s" infill--status-unreachable))
    status))

;;;###autoload
(defun infill-status ()
  "Show the usage figures of the current buffer's infill-lsp.
Requests, prompt tokens and the share served from DeepSeek's prompt
cache, the estimated cost, suggestions shown and taken, and latencies;
the characters taken that are still where they went at each retention
check, what taken and kept come to per dollar and per 1000 generated
tokens, the figures by language and by context arm, and next edits'
requests, cost and edits taken; since the server started, in the buffer
*infill-status*."
  (interactive)
  (let ((lines (infill-status-lines (infill-status-data))))
    (with-current-buffer (get-buffer-create "*infill-status*")
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (mapconcat #'identity lines "\n") "\n")
        (goto-char (point-min)))
      (special-mode)
      (display-buffer (current-buffer)))))

(provide 'infill)
;;; infill.el ends here
