;;; emacs-eglot-session.el --- Drive Eglot with the shipped infill.el  -*- lexical-binding: t; -*-

;; Run by emacs.test.ts:  emacs --batch -Q -L editors/emacs -l editors/test/emacs-eglot-session.el
;;
;; Environment:
;;   INFILL_TEST_FILE    the file to open (a .js file: js-mode exists without tree-sitter grammars)
;;   INFILL_TEST_LINE    1-based line of the cursor
;;   INFILL_TEST_COLUMN  0-based column of the cursor
;;   INFILL_TEST_TYPE    text typed at the cursor before `completion-at-point'
;;   INFILL_TEST_SCRATCH a scratch directory (byte-compilation output, fake programs)
;;   INFILL_TEST_CONTEXT_FILE, _LINE, _COLUMN  a second file of the same project, and where `completion-at-point'
;;                       runs in it after typing "(" (repository context: it imports from a file never opened)
;;   INFILL_TEST_RETENTION  optional: a retention check that many seconds after a take; then, after the save, a line
;;                       is completed below the first and deleted at once, and the session waits for every check
;;
;; Prints one line "infill-test-result: JSON" on stdout and exits 0 when the session ran to its end (the
;; assertions are the caller's), or prints "infill-test-error: MESSAGE" and exits 1.

;;; Code:

(require 'cl-lib)
(require 'bytecomp)

(defvar infill-eglot-companion)
(defvar infill-test--gamma nil "The line completed and then deleted.")

(defun infill-test--env (name)
  "The environment variable NAME, which must be set."
  (or (getenv name) (error "%s is not set" name)))

(defun infill-test--strings (list)
  "LIST as a JSON array of strings (non-strings printed)."
  (vconcat (mapcar (lambda (x) (if (stringp x) x (format "%S" x))) list)))

(defun infill-test--byte-compile (scratch)
  "Byte-compile a copy of the shipped infill.el in SCRATCH, warnings as errors.
Returns nil when it compiles clean, else the compile log."
  (let* ((source (locate-library "infill.el"))
         (copy (expand-file-name "infill.el" scratch))
         (byte-compile-error-on-warn t))
    (copy-file source copy t)
    (if (byte-compile-file copy)
        nil
      (with-current-buffer (get-buffer-create byte-compile-log-buffer)
        (or (buffer-string) "byte-compile-file failed")))))

(defun infill-test--fake-program (dir name)
  "Create an executable NAME in DIR that does nothing."
  (let ((file (expand-file-name name dir)))
    (with-temp-file file (insert "#!/bin/sh\nexit 0\n"))
    (set-file-modes file #o755)))

(defun infill-test--contacts (scratch)
  "The contacts `infill-eglot-contact' builds in a js-mode buffer, per situation.
Fake `typescript-language-server' and `rass' programs stand for installed ones."
  (let* ((with-both (expand-file-name "bin-both" scratch))
         (with-usual (expand-file-name "bin-usual" scratch)))
    (make-directory with-both t)
    (make-directory with-usual t)
    (infill-test--fake-program with-both "typescript-language-server")
    (infill-test--fake-program with-both "rass")
    (infill-test--fake-program with-usual "typescript-language-server")
    (with-temp-buffer
      (js-mode)
      (cl-flet ((contact (path companion)
                  (let ((exec-path (cons path exec-path))
                        (infill-eglot-companion companion))
                    (condition-case err
                        (infill-test--strings (infill-eglot-contact nil nil))
                      (user-error (concat "user-error: " (error-message-string err)))))))
        (list :usualAndRass (contact with-both 'usual)
              :usualWithoutRass (contact with-usual 'usual)
              :companionOff (contact with-both nil)
              :companionGiven (contact with-both '((js-mode "biome" "lsp-proxy"))))))))

(defun infill-test--total (key)
  "The figure KEY (a string) of the total of the buffer's infill-lsp."
  (infill--get (infill-status-data) "total" key))

(defun infill-test--wait (what check)
  "Let Eglot talk until CHECK holds, for at most 15 s; an error naming WHAT on timeout.
Eglot sends the buffer's changes from an idle timer, and batch Emacs is never
idle: they are sent here as that timer would."
  (let ((deadline (+ (float-time) 15)))
    (while (progn (eglot--signal-textDocument/didChange) (not (funcall check)))
      (when (> (float-time) deadline) (error "Timed out waiting for %s" what))
      (accept-process-output nil 0.1))))

(defun infill-test--retention ()
  "The characters checked and kept at the longest retention horizon, and the horizon."
  (let* ((retained (infill-test--total "retained"))
         (last (and (> (length retained) 0) (elt retained (1- (length retained))))))
    (list :seconds (infill--get last "seconds")
          :checkedChars (infill--get last "checkedChars")
          :retainedChars (infill--get last "retainedChars"))))

(defun infill-test--take-and-delete (line)
  "Below LINE (1-based) of the current buffer, type a line, complete it, wait until
the server counted the take, and delete the line.  Returns the line as completed."
  (goto-char (point-min))
  (forward-line (1- line))
  (end-of-line)
  (let ((taken (infill-test--total "accepted")))
    (insert "\nconst gamma = comp")
    (completion-at-point)
    (let ((completed (buffer-substring-no-properties (line-beginning-position) (line-end-position))))
      (infill-test--wait "the server to count the take" (lambda () (> (infill-test--total "accepted") taken)))
      (delete-region (1- (line-beginning-position)) (line-end-position))
      completed)))

(defun infill-test--complete-after-paren (file line column)
  "Visit FILE (Eglot manages it with the project's server), type \"(\" at LINE
and COLUMN, run `completion-at-point' there; return the line."
  (find-file file)
  (unless (eglot-current-server) (error "Eglot does not manage %s" file))
  (goto-char (point-min))
  (forward-line (1- line))
  (move-to-column column)
  (insert "(")
  (completion-at-point)
  (buffer-substring-no-properties (line-beginning-position) (line-end-position)))

(defun infill-test--member-access ()
  "Type a member access at the end of the current buffer and ask for completions
there (a request, not `completion-at-point': nothing is taken): infill-lsp asks
Eglot `infill/typeDefinitions' for the receiver.  Then take it out again."
  (save-excursion
    (goto-char (point-max))
    (let ((start (point)))
      (insert "\nMath.")
      (eglot--signal-textDocument/didChange)
      (jsonrpc-request (eglot-current-server) :textDocument/completion
                       (append (eglot--TextDocumentPositionParams) '(:context (:triggerKind 1))))
      (delete-region start (point-max))
      (eglot--signal-textDocument/didChange))))

(defun infill-test--run ()
  "The session; returns the result plist."
  (let* ((file (infill-test--env "INFILL_TEST_FILE"))
         (line (string-to-number (infill-test--env "INFILL_TEST_LINE")))
         (column (string-to-number (infill-test--env "INFILL_TEST_COLUMN")))
         (typed (infill-test--env "INFILL_TEST_TYPE"))
         (scratch (infill-test--env "INFILL_TEST_SCRATCH"))
         (context-file (infill-test--env "INFILL_TEST_CONTEXT_FILE"))
         (context-line (string-to-number (infill-test--env "INFILL_TEST_CONTEXT_LINE")))
         (context-column (string-to-number (infill-test--env "INFILL_TEST_CONTEXT_COLUMN")))
         (retention (getenv "INFILL_TEST_RETENTION"))
         (compile-log (infill-test--byte-compile scratch))
         (_ (require 'infill))
         (_ (require 'js))
         (_ (require 'eglot))
         (contacts (infill-test--contacts scratch))
         (eglot-sync-connect t)
         (eglot-connect-timeout 30)
         result)
    (setq infill-settings '(:maxTokens 64 :lineMode "auto"))
    ;; A configuration to try instead (the README's), as Lisp forms to evaluate.
    (let ((setup (getenv "INFILL_TEST_SETUP")))
      (when setup
        (with-temp-buffer
          (insert setup)
          (goto-char (point-min))
          (condition-case nil
              (while t (eval (read (current-buffer)) t))
            (end-of-file nil)))))
    ;; A retention check this many seconds after a take, instead of 30 s … 10 min; and a take deleted at once.
    (when retention
      (setq infill-settings
            (append infill-settings `(:usage (:retentionChecks ,(vector (string-to-number retention)))))))
    (setq-default eglot-workspace-configuration '(:infill (:debounceMs 0)))
    (infill-eglot-setup)
    (find-file file)
    ;; The usual JavaScript server is not installed here: infill-lsp runs alone (a fake one would be started).
    (call-interactively #'eglot)
    (let ((server (eglot-current-server)))
      (unless server (error "Eglot did not connect"))
      (goto-char (point-min))
      (forward-line (1- line))
      (move-to-column column)
      (insert typed)
      (completion-at-point)
      (let ((completed-line (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
            (completed-point (- (point) (line-beginning-position)))
            (context-completed (save-current-buffer
                                 (prog1 (infill-test--complete-after-paren context-file context-line context-column)
                                   (infill-test--member-access)))))
        ;; Saved before the events are read, so that they show the didSave.
        (save-buffer)
        ;; A take deleted at once, then every take checked at the retention horizon.
        (when retention
          (setq infill-test--gamma (infill-test--take-and-delete line))
          (infill-test--wait "every take checked at the retention horizon"
                             (lambda ()
                               (equal (plist-get (infill-test--retention) :checkedChars)
                                      (infill-test--total "acceptedChars")))))
        (setq result
              (list :compileLog (or compile-log :null)
                    :entries (vconcat
                              (mapcar (lambda (entry) (infill-test--strings (mapcar #'car (car entry))))
                                      (seq-filter (lambda (entry) (eq (cdr entry) #'infill-eglot-contact))
                                                  eglot-server-programs)))
                    :firstIsInfill (if (eq (cdar eglot-server-programs) #'infill-eglot-contact) t :false)
                    :contacts contacts
                    :majorMode (symbol-name major-mode)
                    :managed (if (eglot-managed-p) t :false)
                    :serverName (or (plist-get (eglot--server-info server) :name) :null)
                    :serverClass (symbol-name (eieio-object-class server))
                    :capf (if (memq #'eglot-completion-at-point completion-at-point-functions) t :false)
                    :line completed-line
                    :point completed-point
                    :contextLine context-completed
                    :gammaLine (or infill-test--gamma :null)
                    :retention (infill-test--retention)
                    :accepted (infill-test--total "accepted")
                    :acceptedChars (infill-test--total "acceptedChars")
                    :statusElsewhere (condition-case err
                                         (with-temp-buffer (infill-status-data) "answered")
                                       (user-error (error-message-string err)))
                    :status (progn (infill-status)
                                   (with-current-buffer "*infill-status*"
                                     (buffer-substring-no-properties (point-min) (point-max))))
                    :events (with-current-buffer (jsonrpc-events-buffer server)
                              (buffer-substring-no-properties (point-min) (point-max))))))
      (eglot-shutdown server))
    result))

(condition-case err
    (let ((result (infill-test--run)))
      (princ (format "infill-test-result: %s\n" (json-serialize result)))
      (kill-emacs 0))
  (error
   (princ (format "infill-test-error: %s\n" (error-message-string err)))
   (kill-emacs 1)))

;;; emacs-eglot-session.el ends here
