/*
 * accelsim.c - Accel-Sim NVBit traces (trace-formats.md section 1):
 * post-processed kernel-N.traceg files, raw kernel-N.trace files and the
 * kernelslist[.g] that names them, into one access stream.
 *
 * The kernel begin record carries the kernel's counts, so they must be
 * known before the kernel's first access.  The first pass over a kernel
 * trace checks every line and counts the kernel's instructions.  A file
 * is read once: the first pass keeps what a second would write in a spool
 * (accelsim_spool.c), written after the file's last line.  Past the
 * spool's budget, and for a pipe or under --intervals, the file is read
 * twice instead, the second pass writing the records, so memory stays
 * bounded whatever the size of a kernel.  A regular file is read again
 * from its start (a compressed one decompressed again); anything else (a
 * pipe) is copied to an unlinked temporary file during the first pass.
 * The second pass meets the same lines and takes the same decisions (under
 * --lenient it skips the same lines) without reporting them again; a
 * second pass that counts differently means the file changed while it was
 * read, which is fatal.
 *
 * Decisions (documented in gc-import(1)):
 * - A memory instruction is a line with a non-zero mem_width (an address
 *   payload follows) and a memory opcode (gc_sass_memop), even when its
 *   mask is 0.  Every other line is a non-memory instruction.
 * - seq numbers a warp's memory instructions in program order from 0;
 *   non-memory instructions do not advance it, memory instructions without
 *   an active lane do.
 * - The access size comes from the opcode (gc_sass_width), as Accel-Sim
 *   recomputes it; the mem_width column only says whether an address
 *   payload follows, and a different non-zero value is accepted.
 * - LDGSTS: within a warp, an LDGSTS line followed by an LDGSTS line with
 *   the same PC and mask is the two-line form of one instruction (older
 *   .traceg files, every raw .trace); the first line (the shared
 *   destination) is dropped and the second (the global source) kept, as
 *   the Accel-Sim post-processor does.
 *
 * The parser is one module over the files accelsim_impl.h lists; this one
 * holds its messages, the detection of what an input is, kernelslists and
 * the entry point.
 */
#include "import/accelsim_impl.h"
#include "import/formats.h"
#include "import/import.h"
#include "stream/lines.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the tokenizer's tables -------------------------------------------- */

const uint8_t as_hexval[256] = {
	['0'] = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
	['A'] = 10, 11, 12, 13, 14, 15,
	['a'] = 10, 11, 12, 13, 14, 15,
};
const uint8_t as_ishex[256] = {
	['0'] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['A'] = 1, 1, 1, 1, 1, 1,
	['a'] = 1, 1, 1, 1, 1, 1,
};

/* ---- messages and errors ------------------------------------------------ */

const char *as_show(const char *s, char *buf, size_t cap)
{
	size_t n = 0;
	while (!TOK_END(s[n]) && n < 40)
		n++;
	snprintf(buf, cap, "'%.*s%s'", (int)n, s, TOK_END(s[n]) ? "" : "...");
	return buf;
}

void as_bad(parser *p, const char *fmt, ...)
{
	if (p->pass != 1)
		return;
	char msg[480];
	va_list a;
	va_start(a, fmt);
	vsnprintf(msg, sizeof msg, fmt, a);
	va_end(a);
	gc_import_bad(p->im, p->in, "%s", msg);
}

void as_badtok_hint(parser *p, const char *t, const char *what, const char *hint)
{
	char b[64];
	if (!*t)
		as_bad(p, "line ends before the %s%s", what, hint);
	else
		as_bad(p, "bad %s %s%s", what, as_show(t, b, sizeof b), hint);
}

void as_badtok(parser *p, const char *t, const char *what)
{
	as_badtok_hint(p, t, what, "");
}

void as_fatal(parser *p, const char *fmt, ...)
{
	char msg[600];
	va_list a;
	va_start(a, fmt);
	vsnprintf(msg, sizeof msg, fmt, a);
	va_end(a);
	p->im->fatal(p->im, msg);
	abort(); /* fatal never returns */
}

/* ---- detection ---------------------------------------------------------- */

/* A kernelslist line that names a kernel trace: a file name (no comma)
 * that starts like the tracer's "kernel-" or ends like a trace. */
static int kernel_entry(const char *s, size_t n)
{
	static const char *const suf[] = {".traceg", ".trace", ".traceg.xz", ".trace.xz",
					  ".traceg.gz", ".trace.gz"};
	if (memchr(s, ',', n))
		return 0;
	if (n > 7 && memcmp(s, "kernel-", 7) == 0)
		return 1;
	for (size_t i = 0; i < sizeof suf / sizeof suf[0]; i++) {
		size_t k = strlen(suf[i]);
		if (n > k && memcmp(s + n - k, suf[i], k) == 0)
			return 1;
	}
	return 0;
}

/* "Word," at the start: a command of the list (MemcpyHtoD, cudaMalloc ...). */
static int command_entry(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
			 (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
		i++;
	return i > 0 && i < n && s[i] == ',';
}

static int header_key(const char *s, size_t n, const char *key)
{
	size_t k = strlen(key), i;
	if (n < k + 1 || s[0] != '-' || memcmp(s + 1, key, k) != 0)
		return 0;
	for (i = k + 1; i < n && IS_SP(s[i]); i++)
		;
	return i < n && s[i] == '=';
}

/* What the first bytes hold: K_TRACE (a '-' header naming a kernel),
 * K_LIST (text lines naming kernel traces or MemcpyHtoD, more of them
 * than unknown lines; "Word,..." commands count for neither), or K_NONE. */
static int sniff(const char *h, size_t len)
{
	const char *p = h, *end = h + len;
	int header = 1, dashes = 0, list = 1, hits = 0, unknown = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl && len >= 65536)
			break; /* a cut line at the end of the window */
		const char *e = nl ? nl : end, *a = p;
		p = nl ? nl + 1 : end;
		while (a < e && (IS_SP(*a)))
			a++;
		while (e > a && (IS_SP(e[-1]) || e[-1] == '\r'))
			e--;
		size_t n = (size_t)(e - a);
		if (!n)
			continue;
		if (header) {
			if (a[0] == '-' && dashes < 64) {
				dashes++;
				if (header_key(a, n, "kernel name"))
					return K_TRACE;
			} else {
				header = 0;
			}
		}
		if (list) {
			for (size_t i = 0; i < n; i++)
				if ((unsigned char)a[i] < 0x20 && a[i] != '\t')
					list = 0;
			if (n > 4096)
				list = 0;
			else if (kernel_entry(a, n) || (n > 11 && memcmp(a, "MemcpyHtoD,", 11) == 0))
				hits++;
			else if (!command_entry(a, n))
				unknown++;
		}
		if (!header && !list)
			break;
	}
	return list && hits > unknown ? K_LIST : K_NONE;
}

int gc_accelsim_probe(const char *head, size_t len, const char *path)
{
	(void)path;
	switch (sniff(head, len)) {
	case K_TRACE:
		return 90;
	case K_LIST:
		return 80;
	}
	return 0;
}

/* ---- kernelslist -------------------------------------------------------- */

typedef struct lentry {
	char *name;
	char *path;     /* resolved; NULL when missing (skipped with --lenient) */
	uint64_t line;
} lentry;

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* dir/name, or the .xz variant (with or without) when only that exists. */
static char *resolve(const char *dir, const char *name)
{
	size_t dl = name[0] == '/' || strcmp(dir, ".") == 0 ? 0 : strlen(dir), nl = strlen(name);
	char *path = malloc(dl + nl + 5);
	if (!path)
		return NULL;
	if (dl)
		sprintf(path, "%s/%s", dir, name);
	else
		strcpy(path, name);
	if (!exists(path)) {
		size_t pl = strlen(path);
		if (pl > 3 && strcmp(path + pl - 3, ".xz") == 0) {
			path[pl - 3] = 0;
			if (!exists(path))
				path[pl - 3] = '.';
		} else {
			strcpy(path + pl, ".xz");
			if (!exists(path))
				path[pl] = 0;
		}
	}
	return path;
}

static void import_list(gc_import *im, gc_lines *in)
{
	char listname[256], dir[256];
	snprintf(listname, sizeof listname, "%s", gc_lines_name(in));
	snprintf(dir, sizeof dir, "%s", listname);
	char *slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = 0;
	else
		*slash = 0;
	lentry *ent = NULL;
	size_t n = 0, cap = 0;
	uint64_t memcpys = 0, membytes = 0, ignored = 0;
	char *s;
	long len;
	while ((len = gc_lines_next(in, &s)) >= 0) {
		char *a = skipsp(s);
		rtrim(a);
		size_t k = strlen(a);
		if (!k)
			continue;
		if (k > 11 && memcmp(a, "MemcpyHtoD,", 11) == 0) {
			/* MemcpyHtoD,0x<device address>,<bytes> */
			char *q = a + 11;
			uint64_t addr, bytes;
			const char *e;
			if (gc_parse_hex(q, &e, &addr) && *e == ',' &&
			    (q = (char *)e + 1, tok_u(&q, &bytes)) && !*q) {
				memcpys++;
				membytes += bytes;
			} else {
				ignored++;
			}
		} else if (kernel_entry(a, k)) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				lentry *ne = realloc(ent, cap * sizeof *ne);
				if (!ne)
					im->fatal(im, "out of memory");
				ent = ne;
			}
			ent[n].name = strdup(a);
			ent[n].line = gc_lines_number(in);
			if (!ent[n].name)
				im->fatal(im, "out of memory");
			n++;
		} else {
			ignored++; /* other commands (cudaMalloc, ...), as Accel-Sim does */
		}
	}
	if (len == -2 || gc_lines_failed(in))
		im->fatal(im, gc_lines_error(in));
	char num[32];
	as_set_key(im, "accelsim_input", "kernelslist");
	snprintf(num, sizeof num, "%llu", (unsigned long long)memcpys);
	as_set_key(im, "accelsim_memcpy_htod", num);
	snprintf(num, sizeof num, "%llu", (unsigned long long)membytes);
	as_set_key(im, "accelsim_memcpy_htod_bytes", num);
	snprintf(num, sizeof num, "%llu", (unsigned long long)ignored);
	as_set_key(im, "accelsim_list_ignored", num);
	/* Every named file must exist before anything is written. */
	for (size_t i = 0; i < n; i++) {
		ent[i].path = resolve(dir, ent[i].name);
		if (!ent[i].path)
			im->fatal(im, "out of memory");
		if (!exists(ent[i].path)) {
			gc_import_bad_at(im, listname, ent[i].line, "%s: %s", ent[i].path,
					 strerror(errno));
			free(ent[i].path);
			ent[i].path = NULL;
		} else {
			/* as_import_trace's passes (a second added if a spool
			 * overflows) */
			gc_import_will_read(im, ent[i].path, as_passes(im));
		}
	}
	for (size_t i = 0; i < n; i++) {
		char *path = ent[i].path;
		if (!path) {
			free(ent[i].name);
			continue;
		}
		gc_lines *l = gc_lines_open(path);
		if (!l)
			im->fatal(im, "out of memory");
		size_t hl;
		const char *h = gc_lines_failed(l) ? NULL : gc_lines_peek(l, &hl);
		if (gc_lines_failed(l))
			gc_import_bad_at(im, listname, ent[i].line, "%s", gc_lines_error(l));
		else if (sniff(h, hl) != K_TRACE)
			gc_import_bad_at(im, gc_lines_name(l), 1, "not an Accel-Sim kernel trace "
					 "(no '-kernel name = ...' header)");
		else {
			as_import_trace(im, l);
			gc_import_text(im, l);
		}
		gc_lines_close(l);
		free(path);
		free(ent[i].name);
	}
	free(ent);
}

/* ---- entry -------------------------------------------------------------- */

int gc_accelsim_import(gc_import *im, gc_lines *in)
{
	size_t len;
	const char *h = gc_lines_peek(in, &len);
	if (gc_lines_failed(in))
		return 0; /* gc-import reports it */
	switch (sniff(h, len)) {
	case K_LIST:
		import_list(im, in);
		break;
	case K_TRACE:
		if (!as_one_pass(im, in))
			gc_import_will_reread(im, in); /* as_import_trace's second pass */
		as_import_trace(im, in);
		break;
	default:
		gc_import_bad_at(im, gc_lines_name(in), 1, "neither an Accel-Sim kernel trace "
				 "('-kernel name = ...' header) nor a kernelslist");
	}
	return 0;
}
