/*
 * accelsim_pass.c - one kernel trace file, read in two passes (accelsim.c
 * says why): each line to its kind, a pipe copied to an unlinked temporary
 * file for the second pass, and the header keys of the import.
 */
#include "import/accelsim_impl.h"
#include "import/import.h"
#include "stream/lines.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- a kernel trace file, in two passes --------------------------------- */

static void line(parser *p, char *s)
{
	kstate *c = &p->c;
	char *t = skipsp(s);
	if (!*t)
		return;
	if (*t == '-') {
		as_header_line(p, t);
		return;
	}
	if (c->state == S_NONE) {
		as_bad(p, "line before any kernel header (a kernel begins with '-kernel name = ...' "
		       "and the other '-' lines)");
		return;
	}
	if (c->state == S_HEADER)
		as_body_start(p);
	if (c->skip)
		return;
	if (*t == '#')
		as_marker(p, t);
	else if (starts(t, "thread block"))
		as_tb_line(p, t);
	else if (starts(t, "warp"))
		as_warp_line(p, t, 0);
	else if (starts(t, "insts"))
		as_warp_line(p, t, 1);
	else
		as_inst_line(p, t);
}

static void spill_write(parser *p, const char *s, size_t n)
{
	while (n) {
		ssize_t k = write(p->sfd, s, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			as_fatal(p, "%s: cannot copy the input to a temporary file: %s", p->name,
				 strerror(errno));
		s += k;
		n -= (size_t)k;
	}
}

static void spill_flush(parser *p)
{
	spill_write(p, p->sbuf, p->slen);
	p->slen = 0;
}

/* Keep a copy of a line of a pipe for the second pass. */
static void spill(parser *p, const char *s, size_t n)
{
	if (p->slen + n + 1 > SPILL_BUF) {
		spill_flush(p);
		if (n + 1 > SPILL_BUF) {
			spill_write(p, s, n);
			spill_write(p, "\n", 1);
			return;
		}
	}
	memcpy(p->sbuf + p->slen, s, n);
	p->sbuf[p->slen + n] = '\n';
	p->slen += n + 1;
}

static void spill_open(parser *p)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, sizeof path, "%s/gc-import.XXXXXX", dir);
	p->sfd = mkstemp(path);
	if (p->sfd < 0)
		as_fatal(p, "%s: cannot create a temporary file in %s (a pipe is read twice): %s",
			 p->name, dir, strerror(errno));
	unlink(path);
	p->sbuf = malloc(SPILL_BUF);
	if (!p->sbuf)
		as_fatal(p, "out of memory");
}

static gc_lines *spill_reopen(parser *p)
{
	spill_flush(p);
	free(p->sbuf);
	p->sbuf = NULL;
	if (lseek(p->sfd, 0, SEEK_SET) < 0)
		as_fatal(p, "%s: cannot read the temporary copy: %s", p->name, strerror(errno));
	static const char *const via[2] = {"/dev/fd/%d", "/proc/self/fd/%d"};
	gc_lines *l = NULL;
	for (int i = 0; i < 2; i++) {
		char path[64];
		snprintf(path, sizeof path, via[i], p->sfd);
		gc_lines_close(l);
		l = gc_lines_open(path);
		if (!l)
			as_fatal(p, "out of memory");
		if (!gc_lines_failed(l))
			break;
	}
	if (gc_lines_failed(l))
		as_fatal(p, "%s: cannot read the temporary copy: %s", p->name, gc_lines_error(l));
	close(p->sfd);
	p->sfd = -1;
	return l;
}

static void run(parser *p, gc_lines *l)
{
	char *s;
	long n;
	p->in = l;
	p->ki = 0;
	p->c.state = S_NONE;
	while ((n = gc_lines_next(l, &s)) >= 0) {
		if (p->sbuf)
			spill(p, s, (size_t)n);
		line(p, s);
	}
	if (n == -2 || gc_lines_failed(l))
		as_fatal(p, "%s", gc_lines_error(l));
	as_end_kernel(p, 1);
}

int as_one_pass(const gc_import *im, const gc_lines *in)
{
	return gc_lines_is_regular(in) && as_passes(im) == 1;
}

static void free_parser(parser *p)
{
	free(p->kc);
	free(p->wt);
	free(p->ivp);
	free(p);
}

void as_set_key(gc_import *im, const char *key, const char *val)
{
	/* Only while the header is still unwritten; the first input wins. */
	if (!im->w && *val && !gc_header_get(&im->h, key))
		(void)gc_header_set(&im->h, key, val);
}

/* Read one kernel trace file (of any number of kernels): in one pass when
 * it can be read again and the spool holds what the second would write,
 * else in two; returns the bytes of text it held. */
uint64_t as_import_trace(gc_import *im, gc_lines *in)
{
	parser *p = calloc(1, sizeof *p);
	if (!p)
		im->fatal(im, "out of memory");
	p->im = im;
	p->sfd = -1;
	snprintf(p->name, sizeof p->name, "%s", gc_lines_name(in));
	int regular = gc_lines_is_regular(in);
	if (!regular)
		spill_open(p);
	else if (as_one_pass(im, in))
		as_spool_start(&p->sp, im);
	int spooled = p->sp.on;
	uint64_t unknown = im->iv_unknown; /* a first pass that tracked counts again */
	p->pass = 1;
	run(p, in);
	uint64_t bytes = gc_lines_bytes(in);
	as_set_key(im, "accelsim_input", p->first_layout == L_RAW ? "trace" : "traceg");
	if (p->first_seen) {
		as_set_key(im, "accelsim_tracer_version", p->first_ver);
		as_set_key(im, "accelsim_nvbit_version", p->first_nvbit);
		/* The GPU the trace was compiled for: stages without --gpu
		 * choose their preset by it (gc-config(5), GPU SELECTION). */
		as_set_key(im, "binary_version", p->first_binary);
	}
	/* Every instruction line names its opcode: the stream carries them
	 * (gc-stream(5), opcode records), unless an input before this one
	 * already wrote the header without them. */
	if (!im->w)
		im->h.required |= GC_REQ_OPCODES;
	if (p->sp.on) {
		as_spool_replay(p);
		as_spool_free(&p->sp);
		free_parser(p);
		return bytes;
	}
	if (spooled)
		gc_import_will_reread(im, in); /* the spool passed its budget */
	gc_lines *l = in;
	if (regular) {
		if (gc_lines_rewind(in) < 0)
			as_fatal(p, "%s: cannot read it a second time%s%s", p->name,
				 gc_lines_failed(in) ? ": " : "",
				 gc_lines_failed(in) ? gc_lines_error(in) : "");
	} else {
		l = spill_reopen(p);
	}
	im->iv_unknown = unknown;
	p->pass = 2;
	run(p, l);
	if (p->ki != p->nk)
		as_fatal(p, "%s: changed while it was read (fewer kernels the second time)", p->name);
	if (l != in)
		gc_lines_close(l);
	free_parser(p);
	return bytes;
}
