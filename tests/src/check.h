/*
 * check.h - the one way the C test programs check things.
 *
 * A check that fails prints "#   FILE:LINE: ..." (what was checked, and
 * for the typed forms what it got and wanted) and counts; the program goes
 * on, so one run shows every failure.  Units are functions run in order by
 * check_run, which prints TAP ("1..N", "ok N name", "not ok N name"), so a
 * bats test can assert on the lines.
 *
 *   static void t_linear(void) { CHECK_U64(gc_set_index(...), 3); }
 *   static const check_unit units[] = {{"linear", t_linear}, ...};
 *   int main(int argc, char **argv)
 *   {
 *           return check_run(units, CHECK_NUNITS(units), argc > 1 ? argv[1] : NULL);
 *   }
 *
 * Header only: static functions, and one failure count that every file of
 * a program made of several (tests/src/NAME/) shares: a weak definition in
 * each, which the linker makes one.
 */
#ifndef GC_TEST_CHECK_H
#define GC_TEST_CHECK_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Failures so far, in all units and all the program's files. */
__attribute__((weak)) int check_failed;

__attribute__((unused))
static int check_at(int ok, const char *file, int line, const char *what)
{
	if (!ok) {
		printf("#   %s:%d: check failed: %s\n", file, line, what);
		check_failed++;
	}
	return ok;
}

__attribute__((unused, format(printf, 4, 5)))
static int check_msg_at(int ok, const char *file, int line, const char *fmt, ...)
{
	if (!ok) {
		va_list a;
		printf("#   %s:%d: ", file, line);
		va_start(a, fmt);
		vprintf(fmt, a);
		va_end(a);
		printf("\n");
		check_failed++;
	}
	return ok;
}

__attribute__((unused))
static int check_u64_at(uint64_t got, uint64_t want, const char *file, int line, const char *what)
{
	if (got == want)
		return 1;
	printf("#   %s:%d: %s: got %llu (0x%llx), want %llu (0x%llx)\n", file, line, what,
	       (unsigned long long)got, (unsigned long long)got, (unsigned long long)want,
	       (unsigned long long)want);
	check_failed++;
	return 0;
}

__attribute__((unused))
static int check_str_at(const char *got, const char *want, const char *file, int line,
			const char *what)
{
	if ((!got && !want) || (got && want && strcmp(got, want) == 0))
		return 1;
	printf("#   %s:%d: %s\n#     got:  %s%s%s\n#     want: %s%s%s\n", file, line, what,
	       got ? "'" : "", got ? got : "NULL", got ? "'" : "",
	       want ? "'" : "", want ? want : "NULL", want ? "'" : "");
	check_failed++;
	return 0;
}

/* Each returns 1 when the check holds, 0 (and counts a failure) when not. */
#define CHECK(c) check_at(!!(c), __FILE__, __LINE__, #c)
#define CHECK_MSG(c, ...) check_msg_at(!!(c), __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_U64(got, want) \
	check_u64_at((uint64_t)(got), (uint64_t)(want), __FILE__, __LINE__, #got)
#define CHECK_STR(got, want) check_str_at((got), (want), __FILE__, __LINE__, #got)

typedef struct check_unit {
	const char *name;
	void (*fn)(void);
} check_unit;

#define CHECK_NUNITS(a) (sizeof(a) / sizeof((a)[0]))

/* Run every unit (only: the one of that name; NULL: all) as TAP; 0 when
 * every check held, 1 when one failed, 2 when `only` names no unit. */
__attribute__((unused))
static int check_run(const check_unit *u, size_t n, const char *only)
{
	size_t planned = 0, k = 0;
	for (size_t i = 0; i < n; i++)
		planned += !only || strcmp(only, u[i].name) == 0;
	if (planned == 0) {
		fprintf(stderr, "no test unit named '%s'\n", only);
		return 2;
	}
	printf("1..%zu\n", planned);
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		if (only && strcmp(only, u[i].name) != 0)
			continue;
		int before = check_failed;
		u[i].fn();
		fflush(stdout);
		int ok = check_failed == before;
		printf("%sok %zu %s\n", ok ? "" : "not ", ++k, u[i].name);
		bad |= !ok;
	}
	return bad;
}

#endif
