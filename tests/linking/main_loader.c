/* Loads two C shared libraries, each embedding a Rust staticlib with cuda-entry, with the flags
   given (global or local), and asks each for its entries; then closes and reopens the first
   three times. Each must list its own. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
typedef size_t (*entries_fn)(void);
static int ask(const char *path, const char *name, int flags, void **handle) {
  *handle = dlopen(path, flags);
  if (!*handle) { printf("dlopen %s: %s\n", path, dlerror()); return 1; }
  entries_fn f = (entries_fn)dlsym(*handle, name);
  if (!f) { printf("dlsym %s: %s\n", name, dlerror()); return 1; }
  f();
  fflush(stdout);
  return 0;
}
int main(int argc, char **argv) {
  if (argc < 4) return 2;
  int flags = RTLD_NOW | (strcmp(argv[1], "global") == 0 ? RTLD_GLOBAL : RTLD_LOCAL);
  void *a, *b;
  if (ask(argv[2], "liba_entries", flags, &a) || ask(argv[3], "libb_entries", flags, &b)) return 1;
  for (int i = 0; i < 3; i++) {
    dlclose(a);
    if (ask(argv[2], "liba_entries", flags, &a)) return 1;
  }
  return 0;
}
