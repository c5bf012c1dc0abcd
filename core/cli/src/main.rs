//! The `cuda-entry` binary: everything is in the library (`cuda_entry_cli::main`).

fn main() -> std::process::ExitCode {
    cuda_entry_cli::main()
}
