/*
 * pipe-floor - the pipe floor of tools/bench: what a pipe between two
 * stages moves when nothing else is done to the records, with the pipe
 * set as our library sets it (gc_fd_tune, 1 MiB) and the block sizes of
 * our writer and reader (GC_WRITE_BLOCK, GC_READ_CHUNK).
 *
 *   pipe-floor write [-s SIZE] [--vmsplice] FILE
 *       copy FILE (a gc stream) to standard output, a pipe, in writes of
 *       SIZE bytes (default GC_WRITE_BLOCK, what gc_write writes a
 *       block in).  --vmsplice hands the pages to the pipe with
 *       vmsplice(2) from a ring of SIZE-byte buffers read from FILE, each
 *       reused only after twice the pipe's size has followed it (the
 *       measurement of DESIGN-NOTES, issue 20).
 *   pipe-floor read [-s SIZE]
 *       read a gc stream from standard input in reads of SIZE bytes
 *       (default GC_READ_CHUNK, what the stream reader asks for), count
 *       its records from the header's size and record size, and print
 *       "records N bytes B pipe P" (N counts every record of
 *       gc-stream(5), control records included: gc-stats --json's
 *       stream_records; P is the pipe's size at the end, 0 for no pipe).
 *
 * --no-tune on either leaves the pipe at the system's default size (what
 * `cat | cat` gets).  Exit 1 when the input is no whole stream (a short
 * header, a tail that is not a whole record), 2 on usage.
 *
 * Usage:  pipe-floor write FILE | pipe-floor read
 */
#define _GNU_SOURCE /* vmsplice, F_GETPIPE_SZ */
#include "base/endian.h"
#include "prog/prog.h"
#include "stream/input.h"
#include "stream/stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* All n bytes at p into standard output: write(2), or vmsplice(2) when
 * splice is set; again for what a call left. */
static void put_all(unsigned char *p, size_t n, int splice)
{
	while (n) {
		struct iovec iov = { p, n };
		ssize_t k = splice ? vmsplice(1, &iov, 1, 0) : write(1, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			gc_die(GC_EXIT_DATA, "%s: %s", splice ? "vmsplice" : "write error",
			       strerror(errno));
		p += k;
		n -= (size_t)k;
	}
}

/* Fill buf with up to n bytes of fd: how many (less only at the end). */
static size_t read_full(int fd, unsigned char *buf, size_t n, const char *name)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = read(fd, buf + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			gc_die(GC_EXIT_DATA, "%s: read error: %s", name, strerror(errno));
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return got;
}

static void do_write(const char *path, size_t bs, int splice)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		gc_die(GC_EXIT_DATA, "%s: %s", path, strerror(errno));
	size_t nbuf = 1;
	if (splice) {
		/* A page spliced stays the pipe's until the reader copied it:
		 * a buffer is refilled only after twice the pipe has followed. */
		int ps = fcntl(1, F_GETPIPE_SZ);
		if (ps <= 0)
			gc_die(GC_EXIT_USAGE, "--vmsplice: standard output is no pipe");
		nbuf = 2 * (size_t)ps / bs + 2;
	}
	unsigned char *buf = aligned_alloc(4096, nbuf * bs);
	if (!buf)
		gc_die(GC_EXIT_DATA, "out of memory");
	for (size_t i = 0;; i = (i + 1) % nbuf) {
		unsigned char *b = buf + i * bs;
		size_t n = read_full(fd, b, bs, path);
		if (n == 0)
			break;
		put_all(b, n, splice);
	}
	free(buf);
	close(fd);
}

static void do_read(size_t bs)
{
	unsigned char *buf = malloc(bs < GC_HEADER_FIXED ? GC_HEADER_FIXED : bs);
	if (!buf)
		gc_die(GC_EXIT_DATA, "out of memory");
	size_t n = read_full(0, buf, GC_HEADER_FIXED, "stdin");
	if (n < GC_HEADER_FIXED)
		gc_die(GC_EXIT_DATA, "stdin: %zu bytes, no whole stream header", n);
	uint64_t hs = gc_get32(buf + 12), rs = gc_get16(buf + 18);
	if (rs == 0 || hs < GC_HEADER_FIXED)
		gc_die(GC_EXIT_DATA, "stdin: header size %llu, record size %llu",
		       (unsigned long long)hs, (unsigned long long)rs);
	uint64_t bytes = n;
	for (;;) {
		ssize_t k = read(0, buf, bs);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			gc_die(GC_EXIT_DATA, "stdin: read error: %s", strerror(errno));
		if (k == 0)
			break;
		bytes += (uint64_t)k;
	}
	free(buf);
	if (bytes < hs || (bytes - hs) % rs)
		gc_die(GC_EXIT_DATA, "stdin: %llu bytes are no %llu-byte header and "
		       "whole %llu-byte records", (unsigned long long)bytes,
		       (unsigned long long)hs, (unsigned long long)rs);
	int ps = fcntl(0, F_GETPIPE_SZ);
	printf("records %llu bytes %llu pipe %d\n", (unsigned long long)((bytes - hs) / rs),
	       (unsigned long long)bytes, ps < 0 ? 0 : ps);
	gc_close_stdout();
}

static const char usage[] =
	"Usage: pipe-floor write [-s SIZE] [--vmsplice] [--no-tune] FILE\n"
	"       pipe-floor read [-s SIZE] [--no-tune]\n";

int main(int argc, char **argv)
{
	gc_prog_init("pipe-floor", argc, argv);
	if (argc < 2 || (strcmp(argv[1], "write") != 0 && strcmp(argv[1], "read") != 0)) {
		fputs(usage, stderr);
		return GC_EXIT_USAGE;
	}
	int writer = strcmp(argv[1], "write") == 0, splice = 0, tune = 1;
	size_t bs = writer ? GC_WRITE_BLOCK : GC_READ_CHUNK;
	const char *path = NULL;
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
			bs = (size_t)gc_num("-s", argv[++i], 4096, (uint64_t)1 << 30);
		else if (strcmp(argv[i], "--vmsplice") == 0 && writer)
			splice = 1;
		else if (strcmp(argv[i], "--no-tune") == 0)
			tune = 0;
		else if (writer && !path && argv[i][0] != '-')
			path = argv[i];
		else {
			fputs(usage, stderr);
			return GC_EXIT_USAGE;
		}
	}
	if (writer && !path) {
		fputs(usage, stderr);
		return GC_EXIT_USAGE;
	}
	if (tune)
		gc_fd_tune(writer ? 1 : 0);
	if (writer)
		do_write(path, bs, splice);
	else
		do_read(bs);
	return 0;
}
