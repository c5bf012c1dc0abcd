/* Windows: loads two DLLs, each embedding a Rust staticlib with cuda-entry, and asks each for its
   entries; then frees and reloads the first three times. Each must list its own. (Windows has no
   RTLD_GLOBAL or LD_PRELOAD: a DLL's imports are bound to the DLL that exports them.) */
#include <windows.h>
#include <stdio.h>
typedef size_t (*entries_fn)(void);
static int ask(const char *path, const char *name, HMODULE *handle) {
  *handle = LoadLibraryA(path);
  if (!*handle) { printf("LoadLibrary %s: error %lu\n", path, GetLastError()); return 1; }
  entries_fn f = (entries_fn)(void (*)(void))GetProcAddress(*handle, name);
  if (!f) { printf("GetProcAddress %s: error %lu\n", name, GetLastError()); return 1; }
  f();
  fflush(stdout);
  return 0;
}
int main(int argc, char **argv) {
  if (argc < 3) return 2;
  HMODULE a, b;
  if (ask(argv[1], "liba_entries", &a) || ask(argv[2], "libb_entries", &b)) return 1;
  for (int i = 0; i < 3; i++) {
    FreeLibrary(a);
    if (ask(argv[1], "liba_entries", &a)) return 1;
  }
  return 0;
}
