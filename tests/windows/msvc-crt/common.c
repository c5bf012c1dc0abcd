/* What the static part of the MSVC C runtime (the objects of Microsoft's msvcrt.lib) gives a
 * program linked against the DLL CRT, as far as Rust programs and DLLs need it, for the
 * x86_64-pc-windows-msvc run under Wine (tests/windows/msvc-libs.sh builds it with clang and
 * archives it with the vcruntime140 and ucrtbase import libraries as msvcrt.lib). This is a
 * stand-in written for these tests, not Microsoft's CRT: see docs/testing.md for what that leaves
 * unverified.
 *
 * This file is the part both kinds of image use: the TLS directory and its callback bounds, the
 * initializer bounds and their walk, and the type_info vftable of Rust's panics. exe.c and dll.c
 * hold the entry points; each refers to crt_initialize() here, so the linker takes this object
 * whenever it takes either. */
#include <stddef.h>

typedef void(__cdecl *crt_vfunc)(void);
typedef int(__cdecl *crt_ifunc)(void);
typedef void(__stdcall *tls_callback)(void *module, unsigned long reason, void *reserved);

/* The linker sorts the pieces of a section by what follows `$`: everything a compiler puts in
 * `.CRT$XCU` (C++ constructors, Rust's initializers) lands between `.CRT$XCA` and `.CRT$XCZ`. */
#define CRT_SECTION(name) __attribute__((section(name), used))

CRT_SECTION(".CRT$XIA") static crt_ifunc xi_a = NULL;
CRT_SECTION(".CRT$XIZ") static crt_ifunc xi_z = NULL;
CRT_SECTION(".CRT$XCA") static crt_vfunc xc_a = NULL;
CRT_SECTION(".CRT$XCZ") static crt_vfunc xc_z = NULL;

/* The TLS directory: the loader copies [_tls_start, _tls_end) into each thread's block, stores
 * the module's slot in _tls_index, and calls every callback from .CRT$XLA to the null at
 * .CRT$XLZ on process and thread attach and detach (Rust's std runs its thread-local
 * destructors from one in .CRT$XLB). lld-link fills the PE's TLS data directory from _tls_used. */
CRT_SECTION(".tls") char _tls_start = 0;
CRT_SECTION(".tls$ZZZ") char _tls_end = 0;
CRT_SECTION(".CRT$XLA") tls_callback __xl_a = NULL;
CRT_SECTION(".CRT$XLZ") tls_callback __xl_z = NULL;
unsigned long _tls_index = 0;

struct tls_directory {
    const void *start_of_raw_data;
    const void *end_of_raw_data;
    const void *address_of_index;
    const void *address_of_callbacks;
    unsigned int size_of_zero_fill;
    unsigned int characteristics;
};

CRT_SECTION(".rdata$T") const struct tls_directory _tls_used = {
    &_tls_start, &_tls_end, &_tls_index, &__xl_a + 1, 0, 0,
};

/* Microsoft's C++ type_info vftable, which the type descriptors of Rust's panics (its SEH
 * exceptions) point at; Rust never calls through it. In Microsoft's CRT it lives in the static
 * part, not in vcruntime140.dll. */
static void __cdecl type_info_destructor(void *self) { (void)self; }
const void *const type_info_vftable[1] __asm__("??_7type_info@@6B@") = {
    (const void *)type_info_destructor,
};

/* Objects that use floating point refer to _fltused; its value is never read. */
int _fltused = 0x9875;

/* Runs the initializers, as the CRT's _initterm_e and _initterm do: first .CRT$XI* (each may fail
 * with a nonzero return), then .CRT$XC*. Null entries are skipped: the bounds themselves, and
 * the zero padding an incremental link.exe puts between the pieces of a `$`-grouped section.
 * Returns 0, or the first failure. */
int crt_initialize(void) {
    for (crt_ifunc *f = &xi_a + 1; f < &xi_z; ++f) {
        if (*f) {
            int failed = (*f)();
            if (failed)
                return failed;
        }
    }
    for (crt_vfunc *f = &xc_a + 1; f < &xc_z; ++f) {
        if (*f)
            (*f)();
    }
    return 0;
}
