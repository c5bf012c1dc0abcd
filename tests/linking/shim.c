/* A C shared library's own code around the Rust staticlib it embeds. */
int shim_present(void) { return 1; }
