/* _DllMainCRTStartup, the entry point lld-link gives a DLL (Rust's cdylibs: the simulated
 * drivers and runtimes): the initializers run once, when the DLL is loaded, in the stand-in CRT
 * of the x86_64-pc-windows-msvc run under Wine (common.c says what the stand-in is). Rust's
 * cdylibs define no DllMain, so there is nothing else to call. */
int crt_initialize(void);

#define DLL_PROCESS_ATTACH 1

int __stdcall _DllMainCRTStartup(void *module, unsigned long reason, void *reserved) {
    (void)module;
    (void)reserved;
    if (reason == DLL_PROCESS_ATTACH)
        return crt_initialize() == 0;
    return 1;
}
