/* Calls YACTestPanic, a libyac function that panics (exported only with
 * the test-panic feature), when given the argument "panic"; with no
 * argument it only proves it runs. A panic must abort the process: the
 * call never returns. */
#include <stdio.h>
#include <string.h>

void YACTestPanic(void);

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "panic") == 0) {
        YACTestPanic();
        puts("returned from YACTestPanic");
        return 0;
    }
    puts("ran");
    return 0;
}
