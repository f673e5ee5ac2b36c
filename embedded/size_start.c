/* The smallest startup for the size measurement (embedded/size.sh): a
 * vector table whose reset entry calls main. Nothing here runs. */

extern unsigned long __stack_top;
extern int main(void);

void Reset_Handler(void);

__attribute__((section(".vectors"), used)) static void (*const vectors[2])(
    void) = {(void (*)(void))&__stack_top, Reset_Handler};

void Reset_Handler(void) {
  (void)main();
  for (;;) {
  }
}
