/* The benchmark documents for the C tests: ../shared/data beside the
 * checkout (the tests run from it), or $YAC_DATA_DIR. Needs check.h
 * first. */
#ifndef YAC_TEST_DATA_H
#define YAC_TEST_DATA_H

#include <stdio.h>
#include <stdlib.h>

/* A benchmark document, or NULL (with a note) when there is none. */
static unsigned char *read_bench_doc(const char *doc, size_t *len) {
  const char *dir = getenv("YAC_DATA_DIR");
  char path[4096];
  FILE *f;
  unsigned char *buf;
  long size;
  snprintf(path, sizeof path, "%s/%s.yac", dir != NULL ? dir : "../shared/data", doc);
  f = fopen(path, "rb");
  if (f == NULL) {
    CHECK(getenv("CI") == NULL, "CI must have the benchmark documents");
    printf("SKIPPED: no %s\n", path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  size = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = (unsigned char *)malloc(size > 0 ? (size_t)size : 1);
  *len = 0;
  if (buf != NULL && size > 0 && fread(buf, 1, (size_t)size, f) == (size_t)size) {
    *len = (size_t)size;
  }
  fclose(f);
  return buf;
}

#endif /* YAC_TEST_DATA_H */
