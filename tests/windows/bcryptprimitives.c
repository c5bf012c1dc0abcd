/* ProcessPrng for Wine releases that lack bcryptprimitives.dll (Wine 8.0 among them).
 *
 * Rust's standard library (1.78 and later) imports ProcessPrng from bcryptprimitives.dll, as
 * Windows 10 and later provide it; without this DLL a Rust program does not start under such a
 * Wine. tests/windows/wine-run.sh builds this file with mingw-w64 into the test Wine prefix's
 * System32, never into a real Windows installation. RtlGenRandom (advapi32's SystemFunction036)
 * is what Rust's std used before ProcessPrng. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
