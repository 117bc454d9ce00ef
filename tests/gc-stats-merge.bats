#!/usr/bin/env bats
# gc-stats --merge: many --stats JSON files into one CSV table.

load helpers

setup() {
	T=$BATS_TEST_TMPDIR
	cat >"$T/a.json" <<'J'
{"requests": 10, "hits": 4, "hit_rate": 0.4, "name": "a,b \"x\"",
 "per_sm": [{"hits": 1}, {"hits": 3}], "l1": {"size": 16384, "ok": true}}
J
	cat >"$T/b.json" <<'J'
{"requests": 20, "misses": 5, "hits": 15,
 "l1": {"size": 32768, "ok": false, "extra": null}, "s": "\u00e9\n"}
J
}

@test "gc-stats --merge: one row per file, columns in order of first appearance" {
	cd "$T"
	run_status 0 gc-stats --merge a.json b.json
	expect_eq "${lines[0]}" 'file,requests,hits,hit_rate,name,l1.size,l1.ok,misses,l1.extra,s'
	expect_eq "${lines[1]}" 'a.json,10,4,0.4,"a,b ""x""",16384,true,,,'
	expect_eq "${lines[2]}" "b.json,20,15,,,32768,false,5,null,\"$(printf '\303\251')"
	expect_eq "${lines[3]}" '"'
}

@test "gc-stats --merge --arrays: array elements get their index in the path" {
	cd "$T"
	run_status 0 gc-stats --merge --arrays a.json
	expect_eq "${lines[0]}" 'file,requests,hits,hit_rate,name,per_sm.0.hits,per_sm.1.hits,l1.size,l1.ok'
	expect_eq "${lines[1]}" 'a.json,10,4,0.4,"a,b ""x""",1,3,16384,true'
}

@test "gc-stats --merge: the --stats of real runs, values as gc-stats --json printed them" {
	gc-gen -n 1000 vecadd >"$T/v.gc"
	gc-gen -n 3000 copy >"$T/c.gc"
	gc-stats --stats "$T/v.json" "$T/v.gc" >/dev/null
	gc-stats --stats "$T/c.json" "$T/c.gc" >/dev/null
	run_status 0 gc-stats --merge -o "$T/m.csv" "$T/v.json" "$T/c.json"
	# column of "loads" in the header, then that field of each row
	col=$(head -1 "$T/m.csv" | tr , '\n' | grep -nx loads | cut -d: -f1)
	[ -n "$col" ]
	expect_eq "$(sed -n 2p "$T/m.csv" | cut -d, -f"$col")" 2000
	expect_eq "$(sed -n 3p "$T/m.csv" | cut -d, -f"$col")" 3000
}

@test "gc-stats --merge: bad JSON names the file, line and column; nothing on stdout" {
	printf '{"a": [1,\n 2' >"$T/bad.json"
	sh_status 1 "gc-stats --merge '$T/a.json' '$T/bad.json'"
	expect_empty "$(cat "$T/out")" stdout
	expect_match "$(cat "$T/err")" "^gc-stats: .*bad.json: line 2, column 3: "
	printf '{"a": 01}' >"$T/bad2.json"
	sh_status 1 "gc-stats --merge '$T/bad2.json'"
	printf '{"a": 1} x' >"$T/bad3.json"
	sh_status 1 "gc-stats --merge '$T/bad3.json'"
	expect_match "$(cat "$T/err")" "data after the document"
	sh_status 1 "gc-stats --merge '$T/nosuch.json'"
	expect_match "$(cat "$T/err")" "nosuch.json: No such file"
}

@test "gc-stats --merge: usage errors" {
	run_status 2 gc-stats --merge
	run_status 2 gc-stats --merge --json "$T/a.json"
	run_status 2 gc-stats --arrays "$T/a.json"
}

@test "gc-stats --merge: a full disk is an error" {
	run_status 1 sh -c "gc-stats --merge '$T/a.json' >/dev/full"
}
