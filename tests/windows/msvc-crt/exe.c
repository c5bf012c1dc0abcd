/* mainCRTStartup, the entry point lld-link gives a console program that defines `main` (Rust's
 * programs do): what Microsoft's CRT does for it, through ucrtbase.dll, in the stand-in CRT of
 * the x86_64-pc-windows-msvc run under Wine (common.c says what the stand-in is). */
int crt_initialize(void);
int main(int argc, char **argv);

/* ucrtbase.dll's start-up interface, as Microsoft's vcruntime start-up code calls it. */
int __cdecl _configure_narrow_argv(int mode);
int __cdecl _initialize_narrow_environment(void);
int *__cdecl __p___argc(void);
char ***__cdecl __p___argv(void);
void __cdecl exit(int status);

/* _crt_argv_unexpanded_arguments: split the command line, no wildcard expansion. */
#define UNEXPANDED_ARGUMENTS 1

int mainCRTStartup(void) {
    if (_configure_narrow_argv(UNEXPANDED_ARGUMENTS) != 0 || _initialize_narrow_environment() != 0)
        exit(255);
    int failed = crt_initialize();
    if (failed)
        exit(failed);
    /* exit, not return: it runs the atexit handlers and flushes the CRT's streams. */
    exit(main(*__p___argc(), *__p___argv()));
    return 0;
}
