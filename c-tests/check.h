/* A tiny assertion counter for the C tests. CHECK(cond, name) counts a
 * pass or prints file:line, the condition and `name` (which vector) and
 * counts a failure; check_report() prints "N passed, M failed" and gives
 * the exit status. */
#ifndef YAC_CHECK_H
#define YAC_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static unsigned long check_passed;
static unsigned long check_failed;

#define CHECK(cond, name)                                                    \
  do {                                                                       \
    if (cond) {                                                              \
      check_passed++;                                                        \
    } else {                                                                 \
      check_failed++;                                                        \
      fprintf(stderr, "%s:%d: CHECK(%s) failed [%s]\n", __FILE__, __LINE__, \
              #cond, (name));                                                \
    }                                                                        \
  } while (0)

static int check_report(void) {
  printf("%lu passed, %lu failed\n", check_passed, check_failed);
  return check_failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif /* YAC_CHECK_H */
