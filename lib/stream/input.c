/*
 * input.c - byte input from a file or standard input, gzip and xz
 * detected by content and decompressed on the fly (concatenated members or
 * streams included).  Reads move data in large blocks; a pipe is asked for
 * a 1 MiB buffer.
 */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include "stream/input.h"

#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define RAWBUF (1u << 20)
#define PEEKBUF (4u << 10) /* the first read, that finds the compression */

struct gc_input {
	char name[256];
	int fd, own;
	int gz;               /* decompressing */
	int gz_done;          /* last gzip member ended at end of input */
	int xz;               /* decompressing xz (liblzma) */
	int xz_done;
	int raw_eof;
	z_stream z;
	lzma_stream lz;
	off_t start;          /* where a regular file began (for a rewind) */
	unsigned char *raw;   /* raw (compressed or plain) bytes */
	size_t raw_pos, raw_len;
	uint64_t consumed;    /* raw bytes taken from the file */
	int failed;
	char err[300];
};

void gc_fd_tune(int fd)
{
	struct stat st;
#ifdef F_SETPIPE_SZ
	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
	(void)fd;
	(void)st;
#endif
}

static int fail(gc_input *in, const char *fmt, const char *detail)
{
	in->failed = 1;
	snprintf(in->err, sizeof in->err, fmt, in->name, detail);
	return -1;
}

/* One read(2) of at most cap bytes from the file, again when a signal
 * interrupts it; the bytes read (counted in in->consumed), 0 at the end of
 * the file (remembered in in->raw_eof, and never read past), -1 on error. */
static ssize_t fd_read(gc_input *in, void *dst, size_t cap)
{
	if (in->raw_eof)
		return 0;
	ssize_t n;
	do
		n = read(in->fd, dst, cap);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail(in, "%s: read error: %s", strerror(errno));
	if (n == 0)
		in->raw_eof = 1;
	in->consumed += (uint64_t)n;
	return n;
}

/* Read up to cap more raw bytes after the unconsumed ones; 0 at end of
 * input. */
static ssize_t raw_more_cap(gc_input *in, size_t cap)
{
	if (in->raw_pos > 0 && in->raw_pos < in->raw_len)
		memmove(in->raw, in->raw + in->raw_pos, in->raw_len - in->raw_pos);
	in->raw_len -= in->raw_pos;
	in->raw_pos = 0;
	if (cap > RAWBUF - in->raw_len)
		cap = RAWBUF - in->raw_len;
	ssize_t n = fd_read(in, in->raw + in->raw_len, cap);
	if (n > 0)
		in->raw_len += (size_t)n;
	return n;
}

static ssize_t raw_more(gc_input *in)
{
	return raw_more_cap(in, RAWBUF);
}

static void start_decoder(gc_input *in);

gc_input *gc_input_open(const char *path)
{
	gc_input *in = calloc(1, sizeof *in);
	if (!in)
		return NULL;
	in->raw = malloc(RAWBUF);
	if (!in->raw) {
		free(in);
		return NULL;
	}
	if (!path || strcmp(path, "-") == 0) {
		in->fd = 0;
		snprintf(in->name, sizeof in->name, "stdin");
	} else {
		snprintf(in->name, sizeof in->name, "%s", path);
		in->fd = open(path, O_RDONLY);
		if (in->fd < 0) {
			fail(in, "%s: %s", strerror(errno));
			return in;
		}
		in->own = 1;
		struct stat st;
		if (fstat(in->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
			fail(in, "%s: %s", "is a directory");
			return in;
		}
	}
	gc_fd_tune(in->fd);
	in->start = lseek(in->fd, 0, SEEK_CUR);
	start_decoder(in);
	return in;
}

static const unsigned char xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};

static int xz_init(gc_input *in)
{
	lzma_stream init = LZMA_STREAM_INIT;
	in->lz = init;
	if (lzma_stream_decoder(&in->lz, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		return fail(in, "%s: %s", "cannot start xz decompression");
	in->xz = 1;
	return 0;
}

/* Look at the first bytes and start gzip or xz decompression. */
static void start_decoder(gc_input *in)
{
	/* A small first read: plain input goes straight to the caller's
	 * buffer after it. */
	while (in->raw_len < sizeof xz_magic && !in->raw_eof)
		if (raw_more_cap(in, PEEKBUF) < 0)
			return;
	if (in->raw_len >= 2 && in->raw[0] == 0x1f && in->raw[1] == 0x8b) {
		if (inflateInit2(&in->z, 15 + 16) != Z_OK) {
			fail(in, "%s: %s", "cannot start gzip decompression");
			return;
		}
		in->gz = 1;
	} else if (in->raw_len >= sizeof xz_magic &&
		   memcmp(in->raw, xz_magic, sizeof xz_magic) == 0) {
		xz_init(in);
	}
}

static ssize_t xz_read(gc_input *in, unsigned char *dst, size_t cap)
{
	while (!in->xz_done) {
		if (in->raw_pos == in->raw_len && !in->raw_eof && raw_more(in) < 0)
			return -1;
		in->lz.next_in = in->raw + in->raw_pos;
		in->lz.avail_in = in->raw_len - in->raw_pos;
		in->lz.next_out = dst;
		in->lz.avail_out = cap;
		/* LZMA_CONCATENATED needs LZMA_FINISH to know the input ended. */
		lzma_action act = in->raw_eof && in->raw_pos == in->raw_len ? LZMA_FINISH : LZMA_RUN;
		lzma_ret rc = lzma_code(&in->lz, act);
		in->raw_pos = in->raw_len - in->lz.avail_in;
		size_t got = cap - in->lz.avail_out;
		if (rc == LZMA_STREAM_END) {
			in->xz_done = 1;
		} else if (rc == LZMA_BUF_ERROR) {
			return fail(in, "%s: %s", "truncated xz data");
		} else if (rc == LZMA_MEM_ERROR) {
			return fail(in, "%s: %s", "out of memory (xz)");
		} else if (rc == LZMA_FORMAT_ERROR) {
			return fail(in, "%s: %s", "trailing garbage after xz data");
		} else if (rc != LZMA_OK) {
			return fail(in, "%s: xz data error: %s", rc == LZMA_OPTIONS_ERROR
				    ? "unsupported options" : "corrupt input");
		}
		if (got)
			return (ssize_t)got;
	}
	return 0;
}

static ssize_t gz_read(gc_input *in, unsigned char *dst, size_t cap)
{
	while (!in->gz_done) {
		if (in->raw_pos == in->raw_len && !in->raw_eof && raw_more(in) < 0)
			return -1;
		in->z.next_in = in->raw + in->raw_pos;
		in->z.avail_in = (uInt)(in->raw_len - in->raw_pos);
		in->z.next_out = dst;
		in->z.avail_out = (uInt)cap;
		int rc = inflate(&in->z, Z_NO_FLUSH);
		in->raw_pos = in->raw_len - in->z.avail_in;
		size_t got = cap - in->z.avail_out;
		if (rc == Z_STREAM_END) {
			/* Another member may follow (concatenated gzip files). */
			while (in->raw_len - in->raw_pos < 2 && !in->raw_eof)
				if (raw_more(in) < 0)
					return -1;
			if (in->raw_pos == in->raw_len)
				in->gz_done = 1;
			else if (in->raw_len - in->raw_pos >= 2 &&
				 in->raw[in->raw_pos] == 0x1f && in->raw[in->raw_pos + 1] == 0x8b)
				inflateReset(&in->z);
			else
				return fail(in, "%s: %s", "trailing garbage after gzip data");
		} else if (rc == Z_BUF_ERROR) {
			if (in->raw_pos == in->raw_len && in->raw_eof && got == 0)
				return fail(in, "%s: %s", "truncated gzip data");
		} else if (rc != Z_OK) {
			return fail(in, "%s: gzip data error: %s",
				    in->z.msg ? in->z.msg : "corrupt input");
		}
		if (got)
			return (ssize_t)got;
	}
	return 0;
}

ssize_t gc_input_read(gc_input *in, void *dst, size_t cap)
{
	if (in->failed)
		return -1;
	if (cap == 0)
		return 0;
	if (in->gz)
		return gz_read(in, dst, cap);
	if (in->xz)
		return xz_read(in, dst, cap);
	if (in->raw_pos < in->raw_len) {
		size_t n = in->raw_len - in->raw_pos;
		if (n > cap)
			n = cap;
		memcpy(dst, in->raw + in->raw_pos, n);
		in->raw_pos += n;
		return (ssize_t)n;
	}
	return fd_read(in, dst, cap);
}

int gc_input_failed(const gc_input *in) { return in->failed; }
const char *gc_input_error(const gc_input *in) { return in->err; }
const char *gc_input_name(const gc_input *in) { return in->name; }
int gc_input_compressed(const gc_input *in) { return in->gz || in->xz; }
const char *gc_input_codec(const gc_input *in) { return in->gz ? "gzip" : in->xz ? "xz" : NULL; }
uint64_t gc_input_consumed(const gc_input *in) { return in->consumed; }

uint64_t gc_input_size(const gc_input *in)
{
	struct stat st;
	if (in->fd < 0 || fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
		return 0;
	return (uint64_t)st.st_size - (in->start > 0 ? (uint64_t)in->start : 0);
}

int gc_input_is_regular(const gc_input *in)
{
	struct stat st;
	return fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode);
}

int gc_input_rewind(gc_input *in)
{
	if (in->failed || in->start < 0 || !gc_input_is_regular(in))
		return -1;
	if (lseek(in->fd, in->start, SEEK_SET) < 0)
		return fail(in, "%s: cannot rewind: %s", strerror(errno));
	in->raw_pos = in->raw_len = 0;
	in->raw_eof = 0;
	in->consumed = 0;
	if (in->gz) {
		inflateEnd(&in->z);
		in->gz = in->gz_done = 0;
	}
	if (in->xz) {
		lzma_end(&in->lz);
		in->xz = in->xz_done = 0;
	}
	start_decoder(in);
	return in->failed ? -1 : 0;
}

void gc_input_close(gc_input *in)
{
	if (!in)
		return;
	if (in->gz)
		inflateEnd(&in->z);
	if (in->xz)
		lzma_end(&in->lz);
	if (in->own && in->fd >= 0)
		close(in->fd);
	free(in->raw);
	free(in);
}
