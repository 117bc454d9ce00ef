#!/usr/bin/env bats
# The structure of lib/: tests/lint-layers holds the tree to the layer
# table of lib/README.  The lint runs on the real tree, and on small made-up
# trees that break each rule once, so that it can fail.

load helpers

# A tree with lib/README's rules: base < stream < model, prog on top.
mini() {
	mkdir -p "$T/m/lib/base" "$T/m/lib/stream" "$T/m/lib/model" "$T/m/lib/prog" \
		"$T/m/filters" "$T/m/tests/src"
	cat >"$T/m/lib/README" <<-'EOF'
	layers:
	  base     -
	  stream   base
	  model    base stream
	  prog     base stream model
	end
	EOF
	printf '#include "base/hash.h"\n' >"$T/m/lib/base/hash.c"
	printf '/* hash */\n' >"$T/m/lib/base/hash.h"
	printf '#include "stream/stream.h"\n#include "base/hash.h"\n' >"$T/m/lib/stream/stream.c"
	printf '#include "base/hash.h"\n' >"$T/m/lib/stream/stream.h"
	printf '#include "model/cache.h"\n#include "stream/stream.h"\n' >"$T/m/lib/model/cache.c"
	printf '#include "stream/stream.h"\n' >"$T/m/lib/model/cache.h"
	printf '#include "prog/prog.h"\n#include "model/cache.h"\nvoid d(void) { exit(1); }\n' \
		>"$T/m/lib/prog/prog.c"
	printf '/* prog */\n' >"$T/m/lib/prog/prog.h"
	printf '#include "prog/prog.h"\n' >"$T/m/filters/gc-x.c"
}

@test "layers: lib/ follows the layer table of lib/README" {
	run_status 0 sh "$GC_ROOT/tests/lint-layers" "$GC_ROOT"
	expect_empty "$output"
}

@test "layers: a well-formed made-up tree passes" {
	mini
	run_status 0 sh "$GC_ROOT/tests/lint-layers" "$T/m"
	expect_empty "$output"
}

@test "layers: an include against the table is named with its line" {
	mini
	printf '#include "stream/stream.h"\n#include "prog/prog.h"\n' >"$T/m/lib/stream/stream.c"
	run_status 1 sh "$GC_ROOT/tests/lint-layers" "$T/m"
	expect_eq "$output" "lib/stream/stream.c:2: layer stream may not include prog/prog.h (lib/README)"
}

@test "layers: a header included by its bare name is refused" {
	mini
	printf '#include "hash.h"\n' >"$T/m/filters/gc-x.c"
	run_status 1 sh "$GC_ROOT/tests/lint-layers" "$T/m"
	expect_eq "$output" 'filters/gc-x.c:1: include "hash.h" by its folder ("layer/hash.h")'
}

@test "layers: two modules of one layer that include each other are a cycle" {
	mini
	printf '#include "model/rd.h"\n' >"$T/m/lib/model/rd.h"
	printf '#include "model/rd.h"\n#include "model/cache.h"\n' >"$T/m/lib/model/rd.c"
	printf '#include "model/cache.h"\n#include "model/rd.h"\n' >"$T/m/lib/model/cache.c"
	run_status 1 sh "$GC_ROOT/tests/lint-layers" "$T/m"
	expect_match "$output" '^lib/model/(cache|rd)\.c:2: model/cache and model/rd include each other$'
	expect_eq "${#lines[@]}" 1
}

@test "layers: files split from one module share its header without a cycle" {
	mini
	printf '#include "model/cache.h"\n' >"$T/m/lib/model/cache_wide.c"
	run_status 0 sh "$GC_ROOT/tests/lint-layers" "$T/m"
}

@test "layers: a module's private header (X_impl.h) is its own, not a cycle" {
	mini
	printf '#include "model/cache.h"\n' >"$T/m/lib/model/cache_impl.h"
	printf '#include "model/cache.h"\n#include "model/cache_impl.h"\n' >"$T/m/lib/model/cache.c"
	printf '#include "model/cache_impl.h"\n' >"$T/m/lib/model/cache_wide.c"
	run_status 0 sh "$GC_ROOT/tests/lint-layers" "$T/m"
	expect_empty "$output"
}

@test "layers: only prog/ prints or exits" {
	mini
	printf '#include "model/cache.h"\nvoid f(void)\n{\n\tfprintf(stderr, "no");\n}\n' >"$T/m/lib/model/cache.c"
	printf '#include "base/hash.h"\nint g(void) { exit(3); }\n' >"$T/m/lib/base/hash.c"
	run_status 1 sh "$GC_ROOT/tests/lint-layers" "$T/m"
	expect_eq "${lines[0]}" "lib/base/hash.c:2: only prog/ prints or exits"
	expect_eq "${lines[1]}" "lib/model/cache.c:4: only prog/ prints or exits"
	expect_eq "${#lines[@]}" 2
}

@test "layers: a folder the table does not name is refused" {
	mini
	mkdir -p "$T/m/lib/extra"
	printf '/* x */\n' >"$T/m/lib/extra/x.h"
	run_status 1 sh "$GC_ROOT/tests/lint-layers" "$T/m"
	expect_eq "$output" 'lib/extra/x.h:1: layer "extra" is not in lib/README'
}

@test "layers: a private X_impl.h belongs to X's files alone" {
	mini
	printf '/* private */\n' >"$T/m/lib/model/cache_impl.h"
	printf '#include "model/cache.h"\n#include "model/cache_impl.h"\n' >"$T/m/lib/model/cache_wide.c"
	run_status 0 sh "$GC_ROOT/tests/lint-layers" "$T/m"
	printf '#include "model/cache_impl.h"\n' >"$T/m/lib/model/rd.c"
	printf '#include "prog/prog.h"\n#include "model/cache_impl.h"\n' >>"$T/m/filters/gc-x.c"
	run_status 1 sh "$GC_ROOT/tests/lint-layers" "$T/m"
	expect_eq "${lines[0]}" 'filters/gc-x.c:3: "model/cache_impl.h" is private to the files of model/cache'
	expect_eq "${lines[1]}" 'lib/model/rd.c:1: "model/cache_impl.h" is private to the files of model/cache'
	expect_eq "${#lines[@]}" 2
}
