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
;; The API key is read from the environment Emacs runs in: DEEPSEEK_API_KEY.
;; See editors/README.md in the infill repository for the details.

;;; Code:

(require 'seq)

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
logLevel and metrics.  With Eglot, an `infill' section in
`eglot-workspace-configuration' overrides these."
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
server can answer go to it); otherwise run infill-lsp alone.
INTERACTIVE and PROJECT are as in `eglot-server-programs'."
  (let ((companion (infill--eglot-companion major-mode interactive project)))
    (when (and companion (not (executable-find (car infill-eglot-multiplexer))))
      (user-error "Running infill-lsp next to %s needs %s (pip install rassumfrassum, see \
`infill-eglot-multiplexer'), or set `infill-eglot-companion' to nil to run infill-lsp alone"
                  (car companion) (car infill-eglot-multiplexer)))
    `(,@(if companion
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
  (lsp-register-client
   (make-lsp-client
    :new-connection (lsp-stdio-connection (lambda () infill-command))
    :activation-fn #'infill--lsp-mode-activate-p
    :add-on? t
    :priority -2
    :server-id 'infill
    :completion-in-comments? t
    :initialization-options #'infill-initialization-options)))

(with-eval-after-load 'lsp-mode
  (infill-lsp-mode-register))

(provide 'infill)
;;; infill.el ends here
