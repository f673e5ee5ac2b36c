/* Startup for the QEMU boards of the embedded tests (Cortex-M0 and M4F):
 * the vector table, a reset handler that copies .data, clears .bss, turns
 * on semihosting (newlib's librdimon: stdio and the exit status reach the
 * host) and calls main, and a fault handler that reports and exits 99. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern uint32_t __data_start, __data_end, __data_load, __bss_start__,
    __bss_end__, __stack_top;
extern void initialise_monitor_handles(void);
extern int main(void);

void Reset_Handler(void);
void Fault_Handler(void);

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(
    void) = {
    (void (*)(void))(uintptr_t)&__stack_top, /* initial stack pointer */
    Reset_Handler,
    Fault_Handler, /* NMI */
    Fault_Handler, /* HardFault */
    Fault_Handler, /* MemManage */
    Fault_Handler, /* BusFault */
    Fault_Handler, /* UsageFault */
};

void Reset_Handler(void) {
  memcpy(&__data_start, &__data_load,
         (size_t)((char *)&__data_end - (char *)&__data_start));
  memset(&__bss_start__, 0,
         (size_t)((char *)&__bss_end__ - (char *)&__bss_start__));
#if defined(__ARM_FP)
  /* Cortex-M4F: full access to CP10 and CP11 (the FPU) before any float
   * instruction runs. */
  *(volatile uint32_t *)0xE000ED88 |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  initialise_monitor_handles();
  exit(main());
}

void Fault_Handler(void) {
  fputs("FAULT\n", stderr);
  exit(99);
}
