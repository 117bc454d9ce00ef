#!/usr/bin/env bats
# tools/install-deps away from Debian: with no dpkg-query and no apt-get on
# PATH it installs nothing, and says what is missing (exit 1) or nothing
# (exit 0).  On Debian it installs the missing packages through apt-get.
# Each test runs it with PATH set to a folder of stand-ins, so what it
# finds is what the test put there.

load helpers

# A PATH of stand-ins: the compiler is the real one run with the real
# PATH (it needs as and ld); the tools that are only looked for are stubs;
# the few commands the script runs itself are links to the real ones.
tools() {
	B="$T/bin"
	mkdir -p "$B"
	local real_cc
	real_cc=$(command -v cc || command -v gcc)
	printf '#!/bin/sh\nPATH="%s" exec "%s" "$@"\n' "$PATH" "$real_cc" >"$B/cc"
	for t in make xz gzip bats rsvg-convert mandoc; do
		printf '#!/bin/sh\necho "%s 1.0"\n' "$t" >"$B/$t"
	done
	printf '#!/bin/sh\necho "GNU parallel 20240101"\n' >"$B/parallel"
	chmod +x "$B"/*
	for t in mktemp rm grep id; do
		ln -s "$(command -v "$t")" "$B/$t"
	done
}

# deps [VAR=VALUE...]: run install-deps with PATH=$B (CC unset unless given).
deps() {
	run env -u CC PATH="$B" "$@" /bin/sh "$GC_ROOT/tools/install-deps"
}

@test "install-deps: without dpkg and apt-get, everything there: exit 0, silent, nothing installed" {
	tools
	[ ! -e "$B/dpkg-query" ] && [ ! -e "$B/apt-get" ]
	printf '#!/bin/sh\necho "sudo $*" >>"%s"\n' "$T/calls" >"$B/sudo"
	chmod +x "$B/sudo"
	deps
	expect_eq "$status" 0 "exit status"
	expect_empty "$output"
	[ ! -e "$T/calls" ]
}

@test "install-deps: without dpkg and apt-get, a missing tool is named: exit 1" {
	tools
	rm "$B/bats"
	deps
	expect_eq "$status" 1 "exit status"
	expect_match "$output" "^install-deps: missing: bats "
	[ -n "${output##*installing*}" ]
}

@test "install-deps: without dpkg and apt-get, every missing tool and library is named" {
	tools
	rm "$B/make" "$B/parallel"
	printf '#!/bin/sh\nexit 1\n' >"$B/nocc"
	chmod +x "$B/nocc"
	deps CC=nocc
	expect_eq "$status" 1 "exit status"
	expect_eq "$output" "install-deps: missing: zlib (zlib.h, -lz), liblzma (lzma.h, -llzma), make, GNU parallel (no dpkg-query and apt-get here to install them)"
}

@test "install-deps: without dpkg and apt-get, no compiler is named" {
	tools
	rm "$B/cc"
	deps
	expect_eq "$status" 1 "exit status"
	expect_eq "$output" "install-deps: missing: a C compiler (cc or gcc) (no dpkg-query and apt-get here to install them)"
	deps CC=clang-none
	expect_eq "$status" 1 "exit status"
	expect_match "$output" "missing: a C compiler \(clang-none\)"
}

@test "install-deps: a non-GNU parallel does not count" {
	tools
	printf '#!/bin/sh\necho "parallel from moreutils"\n' >"$B/parallel"
	deps
	expect_eq "$status" 1 "exit status"
	expect_match "$output" "missing: GNU parallel "
}

@test "install-deps: on Debian, missing packages are installed with apt-get" {
	tools
	# dpkg-query: every package installed but bats and parallel.
	printf '#!/bin/sh\ncase "$3" in bats|parallel) exit 1;; esac\nprintf "install ok installed"\n' >"$B/dpkg-query"
	printf '#!/bin/sh\necho "apt-get $*" >>"%s"\n' "$T/calls" >"$B/apt-get"
	printf '#!/bin/sh\n"$@"\n' >"$B/sudo"
	chmod +x "$B/dpkg-query" "$B/apt-get" "$B/sudo"
	deps
	expect_eq "$status" 0 "exit status"
	expect_eq "$output" "install-deps: installing bats parallel"
	expect_eq "$(cat "$T/calls")" "apt-get update -qq
apt-get install -y -qq bats parallel"
}

@test "install-deps: on Debian with everything installed, apt-get is not run" {
	tools
	printf '#!/bin/sh\nprintf "install ok installed"\n' >"$B/dpkg-query"
	printf '#!/bin/sh\necho "apt-get $*" >>"%s"\n' "$T/calls" >"$B/apt-get"
	chmod +x "$B/dpkg-query" "$B/apt-get"
	deps
	expect_eq "$status" 0 "exit status"
	expect_empty "$output"
	[ ! -e "$T/calls" ]
}

@test "install-deps: rsvg-convert and mandoc are looked for, and installed on Debian" {
	tools
	rm "$B/rsvg-convert" "$B/mandoc"
	deps
	expect_eq "$status" 1 "exit status"
	expect_eq "$output" "install-deps: missing: rsvg-convert, mandoc (no dpkg-query and apt-get here to install them)"
	printf '#!/bin/sh\ncase "$3" in librsvg2-bin|mandoc) exit 1;; esac\nprintf "install ok installed"\n' >"$B/dpkg-query"
	printf '#!/bin/sh\necho "apt-get $*" >>"%s"\n' "$T/calls" >"$B/apt-get"
	printf '#!/bin/sh\n"$@"\n' >"$B/sudo"
	chmod +x "$B/dpkg-query" "$B/apt-get" "$B/sudo"
	deps
	expect_eq "$status" 0 "exit status"
	expect_eq "$output" "install-deps: installing librsvg2-bin mandoc"
	expect_eq "$(cat "$T/calls")" "apt-get update -qq
apt-get install -y -qq librsvg2-bin mandoc"
}

@test "install-deps: on Debian, clang is one of the packages, and arguments add more (valgrind)" {
	tools
	printf '#!/bin/sh\ncase "$3" in clang|valgrind) exit 1;; esac\nprintf "install ok installed"\n' >"$B/dpkg-query"
	printf '#!/bin/sh\necho "apt-get $*" >>"%s"\n' "$T/calls" >"$B/apt-get"
	printf '#!/bin/sh\n"$@"\n' >"$B/sudo"
	chmod +x "$B/dpkg-query" "$B/apt-get" "$B/sudo"
	run env -u CC PATH="$B" /bin/sh "$GC_ROOT/tools/install-deps" valgrind
	expect_eq "$status" 0 "exit status"
	expect_eq "$output" "install-deps: installing clang valgrind"
	expect_eq "$(tail -n 1 "$T/calls")" "apt-get install -y -qq clang valgrind"
}

@test "install-deps: without dpkg and apt-get, an argument is a command looked for (valgrind)" {
	tools
	run env -u CC PATH="$B" /bin/sh "$GC_ROOT/tools/install-deps" valgrind
	expect_eq "$status" 1 "exit status"
	expect_match "$output" "^install-deps: missing: valgrind "
	printf '#!/bin/sh\n' >"$B/valgrind"
	chmod +x "$B/valgrind"
	run env -u CC PATH="$B" /bin/sh "$GC_ROOT/tools/install-deps" valgrind
	expect_eq "$status" 0 "exit status"
	expect_empty "$output"
}
