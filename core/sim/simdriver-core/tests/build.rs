//! The core alone, linked with no crate root's `build!`: it has no version to report and no
//! `cuGetProcAddress*` exports to hand out, so the first call that needs its build stops the
//! process and says what to write (in a child process).
#![cfg(unix)]

use std::os::unix::process::ExitStatusExt;
use std::process::Command;

const CHILD: &str = "CUDA_ENTRY_SIMCORE_TEST_CHILD";

#[test]
fn without_a_declared_build_the_first_call_stops_and_says_so() {
    if std::env::var_os(CHILD).is_some() {
        let mut version = 0;
        // SAFETY: a writable int.
        let rc = unsafe { cuda_entry_simdriver_core::cuDriverGetVersion(&mut version) };
        // Reached only if the core answered without a build: the parent sees no abort and fails.
        println!("answered rc={rc} version={version}");
        return;
    }
    let out = Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "--exact",
            "without_a_declared_build_the_first_call_stops_and_says_so",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .output()
        .expect("run the child");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.signal(), Some(6), "not aborted: {stderr}");
    assert!(
        stderr.contains(
            "cuda-entry simulator: 0 builds linked into this image; exactly one crate root must \
             invoke `cuda_entry_simdriver_core::build!`"
        ),
        "{stderr}"
    );
}
