/* Reading a benchmark document, shared by bench.c and count.c. */
#ifndef YAC_BENCH_READ_FILE_H
#define YAC_BENCH_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

/* Reads DIR/NAME+EXT whole into a malloc'd buffer followed by a NUL byte
 * (counts.json is scanned as a string) and sets *len to the file's size.
 * On any failure prints "PROG: what: path" and exits with status 2. */
static unsigned char *read_file(const char *prog, const char *dir, const char *name, const char *ext,
                                size_t *len) {
    char path[4096];
    const char *fail = NULL;
    FILE *f;
    long n = 0;
    unsigned char *buf = NULL;
    snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
    f = fopen(path, "rb");
    if (f == NULL) {
        fail = "cannot open";
    } else if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fail = "cannot size";
    } else if ((buf = malloc((size_t)n + 1)) == NULL) {
        fail = "out of memory reading";
    } else if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fail = "cannot read";
    }
    if (fail != NULL) {
        fprintf(stderr, "%s: %s: %s\n", prog, fail, path);
        exit(2);
    }
    fclose(f);
    buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

#endif
