/* A C program linking the Rust staticlib liba.a: what it reaches is listed. */
#include <stddef.h>
int liba_call(int really);
size_t liba_entries(void);
int main(void) {
  liba_call(0);
  return liba_entries() == 0;
}
