#!/usr/bin/env bash
# Provision real editors for the end-to-end tests into a per-machine cache.
#
#   scripts/provision-editors.sh [--print-bin] [--force] [TARGET...]
#   TARGET: nvim-0.10 | nvim-0.12 | helix | emacs | tmux | luacheck | ctags | all   (default: all)
#
# Editors come from Debian's archive (the mirror the machine's own apt uses):
#   nvim-0.10  neovim 0.10.x  from trixie              -> <cache>/bin/nvim-0.10
#   nvim-0.12  neovim 0.12.x  from sid (or experimental) -> <cache>/bin/nvim-0.12
#   helix      hx 25.07.x     from sid (or experimental) -> <cache>/bin/hx
#   emacs      emacs-nox 30.x from bookworm-backports  -> <cache>/bin/emacs
#   tmux       tmux           from bookworm            -> <cache>/bin/tmux
#   luacheck   luacheck 1.1.x from bookworm (lua-check, run by its own lua5.1)
#                                                      -> <cache>/bin/luacheck
#   ctags      Universal Ctags 5.9 from bookworm (universal-ctags)
#                                                      -> <cache>/bin/ctags
# `all` is the editors only; luacheck (the Neovim plugin's linter, not needed
# by any test) and ctags (the oracle of the context eval, `pnpm eval`) are
# provisioned only when asked for by name.
#
# Nothing is installed into the system: apt runs against private state under
# <cache>/.apt (own sources.list, lists, status file, no system apt.conf.d), each
# editor's complete dependency closure -- glibc included -- is `dpkg-deb -x`ed into
# its own root under <cache>/store/, and the ELF interpreter + DT_RPATH of the
# editor binaries are rewritten (patchelf, also from Debian) to point at that
# root, so trixie/sid binaries run on an older-glibc host and are still the real
# executables (/proc/self/exe, v:progpath, invocation-directory stay correct).
#
# <cache> is ${INFILL_EDITORS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/infill/editors}.
# A root is published only once it is complete and verified (stamp written, then
# the wrapper in <cache>/bin renamed into place atomically); an up-to-date cache
# makes this script print nothing and exit 0 without touching the network.
# Concurrent runs serialise on <cache>/.lock. On failure it prints one line on
# stderr and exits non-zero; details are in <cache>/.logs/.
#
# Environment: INFILL_EDITORS_DIR (cache location), INFILL_DEBIAN_MIRROR and
# INFILL_DEBIAN_SECURITY_MIRROR (override the mirror found in /etc/apt).
# shellcheck disable=SC2317,SC2016 # trap handlers run indirectly; wrapper bodies are single-quoted on purpose
set -euo pipefail
shopt -s nullglob

PROG=provision-editors
RECIPE=1 # bump to force every cached root to be rebuilt
TRIPLET=x86_64-linux-gnu
ALL_TARGETS=(nvim-0.10 nvim-0.12 helix emacs tmux)

exec 3>&1 4>&2 # the real stdout/stderr; cold-path output goes to a log file
REPORTED=0
LOGFILE=
CUR_STORE=
CUR_TMPFILES=()
VERIFY_TMUX=()
BG_PIDS=()

usage() {
	cat <<'EOF'
Usage: scripts/provision-editors.sh [--print-bin] [--force] [TARGET...]

Provision editors for end-to-end tests into a private, cached location and
write wrapper scripts to <cache>/bin: nvim-0.10, nvim-0.12, hx, emacs, tmux
(and luacheck, the Lua linter, and ctags, the context eval's oracle, when asked
for by name).

  TARGET       nvim-0.10 | nvim-0.12 | helix | emacs | tmux | luacheck | ctags | all
               (default: all = every editor; luacheck and ctags are not part of it)
  --print-bin  on success, print the wrapper directory (<cache>/bin) on stdout
  --force      rebuild the requested targets even if they are cached

<cache> = ${INFILL_EDITORS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/infill/editors}
EOF
}

die() {
	REPORTED=1
	printf '%s: %s\n' "$PROG" "$*" >&4
	exit 1
}

# The most telling error line of a log file, for the one-line failure message.
log_hint() {
	local f=${1:-} line fetch='' miss='' last=''
	[[ -n $f && -r $f ]] || return 0
	while IFS= read -r line; do
		case $line in
		*"Failed to fetch"*) [[ -n $fetch ]] || fetch=$line ;;
		*"Unable to locate"* | *"not found"* | *"No such file"*) [[ -n $miss ]] || miss=$line ;;
		E:* | *[Ee]rror*) last=$line ;;
		esac
	done <"$f"
	line=${fetch:-${miss:-$last}}
	[[ -n $line ]] && printf '%s' "${line:0:240}"
	return 0
}

on_err() {
	local rc=$?
	[[ $BASHPID == "$$" ]] || exit "$rc" # failing subshell: the parent reports
	trap - ERR
	REPORTED=1
	local hint
	hint=$(log_hint "$LOGFILE")
	printf '%s: %s%s failed (exit %s)%s%s\n' "$PROG" "${TARGET:+$TARGET: }" "${STEP:-provisioning}" "$rc" \
		"${hint:+: $hint}" "${LOGFILE:+ [log: $LOGFILE]}" >&4
	exit 1
}

on_exit() {
	local rc=$?
	trap - ERR
	set +e
	local p
	for p in "${BG_PIDS[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	if ((${#VERIFY_TMUX[@]})); then "${VERIFY_TMUX[@]}" kill-server >/dev/null 2>&1; fi
	if ((${#CUR_TMPFILES[@]})); then rm -f -- "${CUR_TMPFILES[@]}"; fi
	if [[ -n $CUR_STORE ]]; then rm -rf -- "$CUR_STORE"; fi
	if ((rc != 0 && REPORTED == 0)); then
		printf '%s: %sfailed unexpectedly (exit %s)%s\n' "$PROG" "${TARGET:+$TARGET: }" "$rc" "${LOGFILE:+ [log: $LOGFILE]}" >&4
	fi
	exit "$rc"
}

set -E
trap on_err ERR
trap on_exit EXIT
on_signal() {
	REPORTED=1
	printf '%s: %sinterrupted by SIG%s; nothing was published\n' "$PROG" "${TARGET:+$TARGET: }" "$1" >&4
	exit $((128 + $2))
}
trap 'on_signal INT 2' INT
trap 'on_signal TERM 15' TERM

# ----------------------------------------------------------------------------
# Arguments

targets=()
print_bin=0
force=0
for arg in "$@"; do
	case $arg in
	--print-bin) print_bin=1 ;;
	--force) force=1 ;;
	-h | --help)
		usage
		exit 0
		;;
	all) targets+=("${ALL_TARGETS[@]}") ;;
	nvim-0.10 | nvim-0.12 | helix | emacs | tmux | luacheck | ctags) targets+=("$arg") ;;
	hx) targets+=(helix) ;;
	*)
		REPORTED=1
		printf '%s: unknown argument %q (expected --print-bin, --force, nvim-0.10, nvim-0.12, helix, emacs, tmux, luacheck, ctags or all)\n' "$PROG" "$arg" >&4
		exit 2
		;;
	esac
done
((${#targets[@]})) || targets=("${ALL_TARGETS[@]}")
declare -A seen=()
uniq_targets=()
for t in "${targets[@]}"; do
	[[ -n ${seen[$t]:-} ]] || uniq_targets+=("$t")
	seen[$t]=1
done
targets=("${uniq_targets[@]}")

# ----------------------------------------------------------------------------
# Recipes

# spec NAME: sets S_CHAN (apt channel), S_PKG, S_GLOB (required version, empty =
# apt's candidate), S_BIN (wrapper name), S_EXPECT (verified version prefix),
# S_STUBS (packages marked as already installed: not needed at run time) and
# S_KEY (the recipe identity recorded in the wrapper; a change forces a rebuild).
spec() {
	S_GLOB='' S_STUBS='' S_BIN='' S_EXPECT=''
	case $1 in
	nvim-0.10) S_CHAN=trixie S_PKG=neovim S_GLOB='0.10.*' S_BIN=nvim-0.10 S_EXPECT=0.10 ;;
	nvim-0.12) S_CHAN=sid S_PKG=neovim S_GLOB='0.12.*' S_BIN=nvim-0.12 S_EXPECT=0.12 ;;
	helix) S_CHAN=sid S_PKG=hx S_GLOB='25.07*' S_BIN=hx S_EXPECT='helix 25.07' ;;
	emacs)
		S_CHAN=bookworm S_PKG=emacs-nox S_GLOB='1:30.*' S_BIN=emacs S_EXPECT=30.
		# Only needed by maintainer scripts / run-time native compilation / sources.
		S_STUBS='dpkg perl perl-base install-info init-system-helpers usrmerge binutils libgcc-12-dev libc6-dev emacs-el'
		;;
	tmux) S_CHAN=bookworm S_PKG=tmux S_BIN=tmux S_EXPECT='tmux ' ;;
	luacheck)
		S_CHAN=bookworm S_PKG=lua-check S_GLOB='1.1.*' S_BIN=luacheck S_EXPECT='Luacheck: 1.1'
		S_STUBS='dpkg install-info' # readline-common's, for its info page
		;;
	ctags) S_CHAN=bookworm S_PKG=universal-ctags S_GLOB='5.9.*' S_BIN=ctags S_EXPECT='Universal Ctags 5.9' ;;
	patchelf) S_CHAN=bookworm S_PKG=patchelf ;;
	*) die "internal error: no recipe for '$1'" ;;
	esac
	S_KEY="r$RECIPE $1 $S_CHAN $S_PKG ${S_GLOB:-candidate} stubs=${S_STUBS// /,}"
}

# ----------------------------------------------------------------------------
# Cache location and the fast path (no forks when everything is provisioned)

[[ -n ${INFILL_EDITORS_DIR:-} || -n ${XDG_CACHE_HOME:-} || -n ${HOME:-} ]] ||
	die "cannot locate the cache: set INFILL_EDITORS_DIR, XDG_CACHE_HOME or HOME"
CACHE=${INFILL_EDITORS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/infill/editors}
[[ $CACHE == /* ]] || CACHE=$PWD/$CACHE
while [[ $CACHE == */ && $CACHE != / ]]; do CACHE=${CACHE%/}; done
BIN=$CACHE/bin

# ready NAME: the wrapper exists, was generated from the current recipe, and
# the root it points to is complete.
ready() {
	spec "$1"
	local w=$BIN/$S_BIN
	local -a l=()
	[[ -f $w && -x $w ]] || return 1
	mapfile -t -n 3 l <"$w"
	[[ ${l[1]:-} == "# recipe: $S_KEY" && ${l[2]:-} == "# root: /"* ]] || return 1
	[[ -f "${l[2]#\# root: }/.provisioned" ]]
}

tool_ready() { # ready for the internal patchelf tool (no wrapper)
	spec "$1"
	local first=''
	[[ -f $CACHE/.tools/$1/.provisioned ]] || return 1
	read -r first <"$CACHE/.tools/$1/.provisioned" || return 1
	[[ $first == "recipe: $S_KEY" ]]
}

pending=()
for t in "${targets[@]}"; do
	if ((force)) || ! ready "$t"; then pending+=("$t"); fi
done
if ((${#pending[@]} == 0)); then
	((print_bin)) && printf '%s\n' "$BIN"
	exit 0
fi

# ----------------------------------------------------------------------------
# Cold path: lock, log, check the host

STEP="checking host tools"
[[ $(uname -m) == x86_64 ]] || die "only x86_64 hosts are supported (this is $(uname -m))"
for tool in apt-get apt-cache apt-config dpkg dpkg-deb flock xargs mktemp readlink timeout; do
	command -v "$tool" >/dev/null || die "required tool '$tool' not found (this script needs a Debian-based host)"
done

STEP="creating the cache directory $CACHE"
[[ $CACHE != *:* ]] || die "the cache path must not contain ':' (it ends up in DT_RPATH): $CACHE"
mkdir -p "$CACHE" "$BIN" "$CACHE/store" "$CACHE/.tools" "$CACHE/.logs" "$CACHE/.apt" "$CACHE/.work"
STEP="locking $CACHE/.lock"
exec 9>>"$CACHE/.lock"
flock -w 1800 9 || die "timed out waiting for another provisioning run (lock: $CACHE/.lock)"

LOGFILE=$CACHE/.logs/provision.log
exec >"$LOGFILE" 2>&1
echo "== $(date -u +%FT%TZ) $0 ${*:-}"

# Another run may have provisioned things while we waited for the lock.
todo=()
for t in "${pending[@]}"; do
	if ((force)) || ! ready "$t"; then todo+=("$t"); fi
done

# ----------------------------------------------------------------------------
# Private apt state per channel (a set of suites that are resolved together)

detect_mirrors() {
	MIRROR=${INFILL_DEBIAN_MIRROR:-}
	SECURITY=${INFILL_DEBIAN_SECURITY_MIRROR:-}
	local f line u
	local -a uris
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[[ -r $f ]] || continue
		while IFS= read -r line; do
			line=${line%%#*}
			uris=()
			if [[ $line =~ ^[[:space:]]*deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+) ]]; then
				uris=("${BASH_REMATCH[2]}")
			elif [[ $line =~ ^URIs:[[:space:]]*(.*)$ ]]; then
				read -ra uris <<<"${BASH_REMATCH[1]}"
			fi
			for u in "${uris[@]}"; do
				[[ $u == http://* || $u == https://* ]] || continue
				u=${u%/}
				case $u in
				*/debian-security) [[ -n $SECURITY ]] || SECURITY=$u ;;
				*/debian) [[ -n $MIRROR ]] || MIRROR=$u ;;
				esac
			done
		done <"$f"
	done
	MIRROR=${MIRROR:-http://deb.debian.org/debian}
	SECURITY=${SECURITY:-${MIRROR%/debian}/debian-security}
	MIRROR=${MIRROR%/}
	SECURITY=${SECURITY%/}
	if [[ -r /usr/share/keyrings/debian-archive-keyring.gpg ]]; then
		KEYOPT='signed-by=/usr/share/keyrings/debian-archive-keyring.gpg'
	else
		KEYOPT='trusted=yes'
	fi
	# Carry over the machine's proxy and Release-freshness policy (a mirror that
	# the machine itself trusts despite stale Valid-Until must keep working).
	SYS_APT_CONF=
	local opt v
	for opt in Acquire::http::Proxy Acquire::https::Proxy Acquire::Check-Valid-Until Acquire::Check-Date; do
		v=$(apt-config shell V "$opt" 2>/dev/null) || v=
		[[ $v =~ ^V=\'([^\"]+)\'$ ]] && SYS_APT_CONF+="$opt \"${BASH_REMATCH[1]}\";"$'\n'
	done
	echo "mirror=$MIRROR security=$SECURITY keys=$KEYOPT"
	printf 'from the system apt config: %s\n' "${SYS_APT_CONF:-nothing}"
}

chan_sources() {
	local s
	case $1 in
	trixie)
		for s in trixie trixie-updates; do printf 'deb [%s] %s %s main\n' "$KEYOPT" "$MIRROR" "$s"; done
		printf 'deb [%s] %s %s main\n' "$KEYOPT" "$SECURITY" trixie-security
		;;
	sid)
		printf 'deb [%s] %s %s main\n' "$KEYOPT" "$MIRROR" sid
		# Only a fallback (when sid has moved past the wanted version): a stale
		# experimental Release on the mirror must not break sid.
		printf 'deb [%s check-valid-until=no] %s %s main\n' "$KEYOPT" "$MIRROR" experimental
		;;
	bookworm)
		for s in bookworm bookworm-updates bookworm-backports; do printf 'deb [%s] %s %s main\n' "$KEYOPT" "$MIRROR" "$s"; done
		printf 'deb [%s] %s %s main\n' "$KEYOPT" "$SECURITY" bookworm-security
		;;
	esac
}

setup_channel() {
	local c=$1 d=$CACHE/.apt/$1
	mkdir -p "$d/etc/apt.conf.d" "$d/etc/preferences.d" "$d/etc/trusted.gpg.d" "$d/etc/sources.list.d" \
		"$d/lists/partial" "$d/cache/archives/partial" "$d/log"
	: >"$d/status-empty"
	chan_sources "$c" >"$d/sources.list"
	# Read instead of the system configuration: APT_CONFIG is parsed before
	# Dir::Etc::parts, so none of /etc/apt/apt.conf.d applies.
	cat >"$d/apt.conf" <<EOF
Dir "/";
Dir::State "$d/";
Dir::State::Lists "$d/lists/";
Dir::State::status "$d/status-empty";
Dir::Cache "$d/cache/";
Dir::Cache::archives "$d/cache/archives/";
Dir::Cache::pkgcache "$d/cache/pkgcache.bin";
Dir::Cache::srcpkgcache "";
Dir::Log "$d/log/";
Dir::Etc::main "/dev/null";
Dir::Etc::parts "$d/etc/apt.conf.d/";
Dir::Etc::sourcelist "$d/sources.list";
Dir::Etc::sourceparts "$d/etc/sources.list.d/";
Dir::Etc::preferences "$d/etc/preferences";
Dir::Etc::preferencesparts "$d/etc/preferences.d/";
Dir::Etc::trusted "$d/etc/trusted.gpg";
Dir::Etc::trustedparts "$d/etc/trusted.gpg.d/";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
APT::Install-Recommends "false";
APT::Install-Suggests "false";
APT::Sandbox::User "root";
Acquire::Languages "none";
Acquire::GzipIndexes "true";
Acquire::Retries "3";
Acquire::http::Timeout "60";
Debug::NoLocking "true";
EOF
	printf '%s' "$SYS_APT_CONF" >>"$d/apt.conf"
}

# apt_in CHANNEL STATUS_FILE apt-get|apt-cache ARGS...
apt_in() {
	local c=$1 status=$2 tool=$3
	shift 3
	APT_CONFIG=$CACHE/.apt/$c/apt.conf "$tool" -q -o "Dir::State::status=$status" "$@"
}

declare -A CHAN_UPDATED=()
update_channels() { # in parallel, once per run
	local c failed=
	local -A pids=()
	for c in "$@"; do
		[[ -z ${CHAN_UPDATED[$c]:-} && -z ${pids[$c]:-} ]] || continue
		setup_channel "$c"
		(APT_CONFIG=$CACHE/.apt/$c/apt.conf exec apt-get -q -o "Dir::State::status=$CACHE/.apt/$c/status-empty" --error-on=any update) \
			>"$CACHE/.logs/apt-update-$c.log" 2>&1 &
		pids[$c]=$!
		BG_PIDS+=("$!")
	done
	for c in "${!pids[@]}"; do
		if wait "${pids[$c]}"; then CHAN_UPDATED[$c]=1; else failed+=" $c"; fi
	done
	BG_PIDS=()
	for c in $failed; do
		LOGFILE=$CACHE/.logs/apt-update-$c.log
		die "updating the Debian package index for $c from $MIRROR failed: $(log_hint "$LOGFILE") [log: $LOGFILE]"
	done
}

# select_version: sets SEL_VERSION/SEL_SUITE for S_PKG matching S_GLOB, preferring
# the channel's default suites over NotAutomatic ones (experimental, backports).
select_version() {
	local line ver src suite best='' best_suite='' na_best='' na_suite=''
	local -a words
	while IFS= read -r line; do
		IFS='|' read -r _ ver src <<<"$line"
		ver=${ver//[[:space:]]/}
		read -ra words <<<"$src"
		suite=${words[1]%%/*}
		# shellcheck disable=SC2053 # S_GLOB is a glob on purpose
		[[ $ver == $S_GLOB ]] || continue
		case $suite in
		experimental | *-backports)
			if [[ -z $na_best ]] || dpkg --compare-versions "$ver" gt "$na_best"; then na_best=$ver na_suite=$suite; fi
			;;
		*)
			if [[ -z $best ]] || dpkg --compare-versions "$ver" gt "$best"; then best=$ver best_suite=$suite; fi
			;;
		esac
	done < <(apt_in "$S_CHAN" "$CACHE/.apt/$S_CHAN/status-empty" apt-cache madison "$S_PKG")
	if [[ -n $best ]]; then
		SEL_VERSION=$best SEL_SUITE=$best_suite
	elif [[ -n $na_best ]]; then
		SEL_VERSION=$na_best SEL_SUITE=$na_suite
	else
		die "$TARGET: no $S_PKG version matching '$S_GLOB' in Debian $S_CHAN ($MIRROR); available: $(apt_in "$S_CHAN" "$CACHE/.apt/$S_CHAN/status-empty" apt-cache madison "$S_PKG" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); printf "%s ", $2}')"
	fi
}

# ----------------------------------------------------------------------------
# Building a root

write_stub_status() { # packages apt should treat as installed
	local p
	for p in "$@"; do
		printf 'Package: %s\nStatus: install ok installed\nPriority: optional\nSection: misc\nMaintainer: provision-editors <nobody@invalid>\nArchitecture: amd64\nMulti-Arch: foreign\nVersion: 99:0\nDescription: stub (not needed at run time)\n\n' "$p"
	done
}

# build_root NAME: download the closure of S_PKG into a new store dir, unpack it,
# and retarget the ELF interpreter/RPATH of its executables. Sets ROOT, PKGLIST,
# SEL_VERSION.
build_root() {
	local name=$1 work=$CACHE/.work/$1 status
	rm -rf -- "$work"
	mkdir -p "$work/debs/partial"
	status=$CACHE/.apt/$S_CHAN/status-empty
	if [[ -n $S_STUBS ]]; then
		status=$work/status
		# shellcheck disable=SC2086 # word list
		write_stub_status $S_STUBS >"$status"
	fi

	local -a want=("$S_PKG") tflag=()
	SEL_VERSION='' SEL_SUITE=''
	if [[ -n $S_GLOB ]]; then
		STEP="selecting a $S_PKG version"
		select_version
		want=("$S_PKG=$SEL_VERSION")
		case $SEL_SUITE in experimental | *-backports) tflag=(-t "$SEL_SUITE") ;; esac
	fi
	echo "-- $name: ${want[*]} ${tflag[*]}"

	STEP="downloading ${want[*]} and its dependencies from Debian $S_CHAN"
	apt_in "$S_CHAN" "$status" apt-get -y -d -o "Dir::Cache::archives=$work/debs/" "${tflag[@]}" install "${want[@]}"
	local -a debs=("$work"/debs/*.deb)
	((${#debs[@]})) || die "$name: apt downloaded no packages for ${want[*]} [log: $LOGFILE]"

	STEP="unpacking ${#debs[@]} packages"
	ROOT=$(mktemp -d "$CACHE/store/$name.XXXXXX")
	CUR_STORE=$ROOT
	printf '%s\0' "${debs[@]}" | xargs -0 -P 2 -I{} dpkg-deb -x {} "$ROOT"
	chmod 755 "$ROOT"
	rm -rf -- "$ROOT"/usr/share/{man,info,lintian,locale} # unused here (and paths are compiled-in anyway)
	PKGLIST=$(for d in "${debs[@]}"; do dpkg-deb --show --showformat='${Package} ${Version}\n' "$d"; done | LC_ALL=C sort)
	[[ -n $SEL_VERSION ]] || SEL_VERSION=$(awk -v p="$S_PKG" '$1 == p {print $2}' <<<"$PKGLIST")

	STEP="relocating absolute symlinks"
	local l t
	while IFS= read -r -d '' l; do
		t=$(readlink "$l")
		ln -sfn -- "$ROOT$t" "$l"
	done < <(find "$ROOT" -type l -lname '/*' -print0)
}

# relocate_elves DIR...: point every dynamic executable in DIRs at ROOT's loader
# and libraries.
relocate_elves() {
	local c loader='' rpath='' d f
	for c in usr/lib/$TRIPLET/ld-linux-x86-64.so.2 lib/$TRIPLET/ld-linux-x86-64.so.2; do
		if [[ -f $ROOT/$c ]]; then
			loader=$(readlink -f "$ROOT/$c")
			break
		fi
	done
	[[ -n $loader ]] || die "$TARGET: no ld-linux-x86-64.so.2 in the unpacked packages (is libc6 missing from the closure?)"
	for d in usr/lib/$TRIPLET lib/$TRIPLET; do
		[[ -d $ROOT/$d && ! -L $ROOT/$d ]] && rpath+=${rpath:+:}$ROOT/$d
	done
	local n=0
	while IFS= read -r -d '' f; do
		"${PATCHELF[@]}" --print-interpreter "$f" >/dev/null 2>&1 || continue # not a dynamic executable
		"${PATCHELF[@]}" --set-interpreter "$loader" --force-rpath --set-rpath "$rpath" "$f"
		n=$((n + 1))
	done < <(for d in "$@"; do [[ -d $ROOT/$d ]] && find "$ROOT/$d" -type f ! -name '*.pdmp' -perm -u+x -print0; done)
	((n > 0)) || die "$TARGET: found no executables to relocate in $*"
	echo "relocated $n executables: interpreter $loader, rpath $rpath"
}

ensure_patchelf() {
	local TARGET=patchelf
	if ! tool_ready patchelf; then
		update_channels "$S_CHAN"
		build_root patchelf
		STEP="checking patchelf"
		local rp=$ROOT/usr/lib/$TRIPLET:$ROOT/lib/$TRIPLET
		"$ROOT/lib64/ld-linux-x86-64.so.2" --library-path "$rp" "$ROOT/usr/bin/patchelf" --version
		printf 'recipe: %s\n%s\n' "$S_KEY" "$PKGLIST" >"$ROOT/.provisioned"
		ln -sfn "../store/${ROOT##*/}" "$CACHE/.tools/.patchelf.$$"
		mv -fT "$CACHE/.tools/.patchelf.$$" "$CACHE/.tools/patchelf"
		CUR_STORE=
		gc_store patchelf "$ROOT"
		rm -rf -- "$CACHE/.work/patchelf"
	fi
	local r
	r=$(readlink -f "$CACHE/.tools/patchelf")
	PATCHELF=("$r/lib/$TRIPLET/ld-linux-x86-64.so.2" --library-path "$r/usr/lib/$TRIPLET:$r/lib/$TRIPLET" "$r/usr/bin/patchelf")
}

gc_store() { # remove other (older or abandoned) roots of NAME
	local d
	for d in "$CACHE/store/$1".*; do
		[[ $d == "$2" ]] || rm -rf -- "$d"
	done
}

# ----------------------------------------------------------------------------
# Wrappers and verification

write_wrapper() { # write_wrapper FILE DESCRIPTION BODY
	{
		printf '#!/bin/bash\n# recipe: %s\n# root: %s\n' "$S_KEY" "$ROOT"
		printf '# %s\n# Generated by scripts/provision-editors.sh; do not edit (re-run the script instead).\n' "$2"
		printf 'root=%q\n%s\n' "$ROOT" "$3"
	} >"$1"
	chmod 755 "$1"
}

expect() { # expect WHAT EXPECTED-PREFIX ACTUAL
	[[ $3 == "$2"* ]] || die "$TARGET: verification failed: $1: expected '$2…', got '${3:0:200}' [log: $LOGFILE]"
}

# Run the new wrapper like a test would: from another cwd, with HOME/XDG isolated.
verify() {
	local w=$1 work=$CACHE/.work/$TARGET out
	local vhome=$work/home
	mkdir -p "$vhome/cfg" "$vhome/data" "$vhome/state" "$vhome/cache" "$vhome/tmp"
	local -a venv=(env HOME="$vhome" XDG_CONFIG_HOME="$vhome/cfg" XDG_DATA_HOME="$vhome/data"
		XDG_STATE_HOME="$vhome/state" XDG_CACHE_HOME="$vhome/cache" TMUX_TMPDIR="$vhome/tmp" TMPDIR="$vhome/tmp")
	STEP="verifying the $S_BIN wrapper"
	cd "$vhome"
	case $TARGET in
	nvim-*)
		out=$("${venv[@]}" timeout 60 "$w" --headless -u NONE -i NONE \
			+"lua local v = vim.version(); local p = vim.treesitter.get_string_parser('local x = 1', 'lua'); p:parse(); io.stdout:write(v.major .. '.' .. v.minor .. ' treesitter-ok')" +qa 2>&1)
		echo "$out"
		expect "nvim version + bundled lua parser" "$S_EXPECT treesitter-ok" "$out"
		;;
	helix)
		out=$("${venv[@]}" timeout 60 "$w" --version 2>&1)
		echo "$out"
		expect "hx --version" "$S_EXPECT" "$out"
		out=$("${venv[@]}" timeout 60 "$w" --health typescript 2>&1)
		echo "$out"
		[[ $out == *"Highlight queries"*"✓"* ]] ||
			die "$TARGET: verification failed: 'hx --health typescript' does not see the runtime queries [log: $LOGFILE]"
		;;
	emacs)
		out=$("${venv[@]}" timeout 60 "$w" --batch --eval '(progn (require (quote eglot)) (princ emacs-version))' 2>&1)
		echo "$out"
		expect "emacs --batch (require 'eglot)" "$S_EXPECT" "$out"
		;;
	tmux)
		out=$("${venv[@]}" timeout 60 "$w" -V 2>&1)
		echo "$out"
		expect "tmux -V" "$S_EXPECT" "$out"
		VERIFY_TMUX=("${venv[@]}" timeout 20 "$w" -L provision-verify -f /dev/null)
		"${VERIFY_TMUX[@]}" new-session -d -s verify -x 80 -y 24 "printf 'pane-%s\\n' ok; sleep 30"
		local i
		for ((i = 0; i < 50; i++)); do
			out=$("${VERIFY_TMUX[@]}" capture-pane -p -t verify 2>&1) || true
			[[ $out == *pane-ok* ]] && break
			sleep 0.1
		done
		"${VERIFY_TMUX[@]}" kill-server || true
		VERIFY_TMUX=()
		expect "tmux capture-pane" "pane-ok" "${out#"${out%%pane-ok*}"}"
		;;
	luacheck)
		# PATH holds only uname (luacheck runs `uname -s` to find its global config
		# dir), so nothing of a host Lua installation (luacheck, lua5.1) can stand
		# in for a broken root; hostile LUA_* must be overridden by the wrapper.
		local to rc=0
		to=$(command -v timeout)
		mkdir -p "$vhome/path"
		ln -sfn "$(command -v uname)" "$vhome/path/uname"
		venv+=(PATH="$vhome/path" LUA_PATH='/nonexistent/?.lua' LUA_CPATH='/nonexistent/?.so' LUA_INIT='error("LUA_INIT ran")')
		out=$("${venv[@]}" "$to" 60 "$w" --version 2>&1)
		echo "$out"
		expect "luacheck --version" "$S_EXPECT" "$out"
		[[ $out == *$'\nLua: '*'Lua 5.1'* && $out == *"LuaFileSystem: "[0-9]* && $out == *"Argparse: "[0-9]* ]] ||
			die "$TARGET: verification failed: 'luacheck --version' does not see Lua 5.1, LuaFileSystem and argparse: ${out//$'\n'/; } [log: $LOGFILE]"
		# Lint a directory (walked with LuaFileSystem): one clean file, one unused variable.
		mkdir -p "$vhome/lint"
		printf 'local M = {}\nfunction M.add(a, b)\n  return a + b\nend\nreturn M\n' >"$vhome/lint/clean.lua"
		printf 'local unused = 1\nreturn {}\n' >"$vhome/lint/warn.lua"
		out=$("${venv[@]}" "$to" 60 "$w" --no-config --no-color --codes lint 2>&1) || rc=$?
		echo "$out"
		echo "exit status $rc"
		[[ $rc == 1 && $out == *"warn.lua:1:7: (W211) unused variable 'unused'"* && $out == *"1 warning / 0 errors in 2 files"* ]] ||
			die "$TARGET: verification failed: linting a test directory gave exit $rc: ${out//$'\n'/; } [log: $LOGFILE]"
		;;
	ctags)
		out=$("${venv[@]}" timeout 60 "$w" --version 2>&1)
		echo "$out"
		expect "ctags --version" "$S_EXPECT" "$out"
		# The eval reads ctags' JSON output: check that this build has it, on a real file.
		printf 'int answer(void) {\n  return 42;\n}\n' >"$vhome/answer.c"
		out=$("${venv[@]}" timeout 60 "$w" --options=NONE --output-format=json --fields=+n -f - answer.c 2>&1)
		echo "$out"
		[[ $out == *'"name": "answer"'*'"line": 1'* ]] ||
			die "$TARGET: verification failed: 'ctags --output-format=json' printed: ${out//$'\n'/; } [log: $LOGFILE]"
		;;
	esac
	cd /
}

# ----------------------------------------------------------------------------
# Provision one editor

provision() {
	local TARGET=$1
	spec "$TARGET"
	build_root "$TARGET"

	STEP="relocating executables"
	local desc body ver pdmp lisp
	case $TARGET in
	nvim-*)
		relocate_elves usr/bin
		# Debian ships the bundled parsers in /usr/lib/nvim/parser; expose them via
		# $VIMRUNTIME so a system /usr/lib/nvim (another nvim) can never shadow them.
		if [[ -d $ROOT/usr/lib/nvim/parser && ! -e $ROOT/usr/share/nvim/runtime/parser ]]; then
			ln -s ../../../lib/nvim/parser "$ROOT/usr/share/nvim/runtime/parser"
		fi
		desc="Neovim $SEL_VERSION (Debian $S_CHAN)"
		body='export VIMRUNTIME="$root/usr/share/nvim/runtime" VIM="$root/usr/share/nvim"
exec "$root/usr/bin/nvim" "$@"'
		;;
	helix)
		relocate_elves usr/lib/hx
		[[ -d $ROOT/usr/lib/hx/runtime ]] || die "$TARGET: hx package has no /usr/lib/hx/runtime"
		desc="Helix (Debian package hx $SEL_VERSION, $S_CHAN; no tree-sitter grammars shipped)"
		body='export HELIX_RUNTIME="$root/usr/lib/hx/runtime"
exec "$root/usr/lib/hx/hx" "$@"'
		;;
	emacs)
		relocate_elves usr/bin usr/libexec
		lisp=("$ROOT"/usr/share/emacs/[0-9]*/lisp)
		((${#lisp[@]} == 1)) || die "$TARGET: expected one usr/share/emacs/<version>/lisp, found ${#lisp[@]}"
		ver=${lisp[0]%/lisp}
		ver=${ver##*/}
		pdmp=("$ROOT/usr/libexec/emacs/$ver/$TRIPLET"/*.pdmp)
		((${#pdmp[@]} == 1)) || die "$TARGET: expected one .pdmp dump file, found ${#pdmp[@]}"
		# Emacs looks for <executable>.pdmp next to itself before the compiled-in
		# /usr/libexec path, so children it spawns find the dump file too.
		ln -sfn "../libexec/emacs/$ver/$TRIPLET/${pdmp[0]##*/}" "$ROOT/usr/bin/emacs-nox.pdmp"
		desc="GNU Emacs $SEL_VERSION (Debian emacs-nox, $S_CHAN backports)"
		body="export EMACSLOADPATH=\"\$root/usr/share/emacs/$ver/lisp\"
export EMACSDATA=\"\$root/usr/share/emacs/$ver/etc\" EMACSDOC=\"\$root/usr/share/emacs/$ver/etc\"
export EMACSPATH=\"\$root/usr/libexec/emacs/$ver/$TRIPLET\"
exec \"\$root/usr/bin/emacs-nox\" \"\$@\""
		;;
	tmux)
		relocate_elves usr/bin
		desc="tmux $SEL_VERSION (Debian $S_CHAN)"
		body='exec "$root/usr/bin/tmux" "$@"'
		;;
	luacheck)
		[[ $ROOT != *[\;?]* ]] || die "$TARGET: the cache path must not contain ';' or '?' (it ends up in LUA_PATH): $CACHE"
		relocate_elves usr/bin # lua5.1; luacheck itself is a Lua script
		[[ -f $ROOT/usr/share/lua/5.1/luacheck/main.lua ]] || die "$TARGET: lua-check has no /usr/share/lua/5.1/luacheck/main.lua"
		[[ -e $ROOT/usr/lib/$TRIPLET/lua/5.1/lfs.so ]] || die "$TARGET: lua-filesystem has no /usr/lib/$TRIPLET/lua/5.1/lfs.so"
		desc="luacheck $SEL_VERSION (Debian lua-check, $S_CHAN), run by the unpacked lua5.1"
		# Only the root's module directories (no ';;': lua5.1's compiled-in
		# defaults are /usr/... and ./); LUA_INIT would run arbitrary code first.
		body="unset LUA_INIT LUA_INIT_5_1 LUA_PATH_5_1 LUA_CPATH_5_1
export LUA_PATH=\"\$root/usr/share/lua/5.1/?.lua;\$root/usr/share/lua/5.1/?/init.lua\"
export LUA_CPATH=\"\$root/usr/lib/$TRIPLET/lua/5.1/?.so\"
exec \"\$root/usr/bin/lua5.1\" \"\$root/usr/bin/luacheck\" \"\$@\""
		;;
	ctags)
		relocate_elves usr/bin
		desc="Universal Ctags $SEL_VERSION (Debian universal-ctags, $S_CHAN)"
		body='exec "$root/usr/bin/ctags-universal" "$@"'
		;;
	esac

	STEP="writing the $S_BIN wrapper"
	local tmpw=$BIN/.$S_BIN.new.$$
	CUR_TMPFILES+=("$tmpw")
	write_wrapper "$tmpw" "$desc" "$body"
	verify "$tmpw"

	STEP="publishing $TARGET"
	{
		printf 'recipe: %s\neditor: %s\nversion: %s\nchannel: %s (%s)\nmirror: %s\nbuilt: %s\n\n' \
			"$S_KEY" "$TARGET" "$SEL_VERSION" "$S_CHAN" "${SEL_SUITE:-default}" "$MIRROR" "$(date -u +%FT%TZ)"
		printf '%s\n' "$PKGLIST"
	} >"$ROOT/.provisioned"
	mv -f "$tmpw" "$BIN/$S_BIN" # the atomic publication point
	CUR_STORE=
	ln -sfn "store/${ROOT##*/}" "$CACHE/.$TARGET.link.$$"
	mv -fT "$CACHE/.$TARGET.link.$$" "$CACHE/$TARGET" # convenience: <cache>/<target> -> current root
	gc_store "$TARGET" "$ROOT"
	rm -rf -- "$CACHE/.work/$TARGET"
	echo "-- $TARGET: published $BIN/$S_BIN -> $ROOT"
}

if ((${#todo[@]})); then
	STEP="reading the machine's apt sources"
	detect_mirrors
	chans=()
	tool_ready patchelf || chans+=("$S_CHAN")
	for t in "${todo[@]}"; do
		spec "$t"
		chans+=("$S_CHAN")
	done
	STEP="updating package indexes"
	update_channels "${chans[@]}"
	ensure_patchelf
	for t in "${todo[@]}"; do
		provision "$t"
	done
	rm -rf -- "$CACHE/.work"
	rm -f -- "$CACHE"/.apt/*/cache/*.bin # ~40 MB each; rebuilt from the lists when needed
fi

exec 1>&3 2>&4
((print_bin)) && printf '%s\n' "$BIN"
exit 0
