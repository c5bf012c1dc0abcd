//! The once-per-process cost of loading the driver, measured in fresh processes: this executable
//! re-run with `CUDA_ENTRY_BENCH_CHILD` set times one first use and prints the nanoseconds.

use std::ffi::c_int;
use std::process::{Command, ExitCode};
use std::time::Instant;

use crate::setup;

/// Set in a child: which first use it times.
pub(crate) const CHILD_VARIABLE: &str = "CUDA_ENTRY_BENCH_CHILD";

/// What a fresh process can time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Load {
    /// `cuda_entry::driver_info()`: dlopen, `cuDriverGetVersion`, the `cuGetProcAddress*` look-up.
    Entry,
    /// The same by hand with libloading: open, dlsym + call `cuDriverGetVersion`, dlsym
    /// `cuGetProcAddress_v2`.
    Raw,
    /// cudarc's first `cuDriverGetVersion`: its library search, dlsym and the call.
    Cudarc,
}

impl Load {
    pub(crate) const ALL: [Load; 3] = [Load::Entry, Load::Raw, Load::Cudarc];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Load::Entry => "entry",
            Load::Raw => "raw",
            Load::Cudarc => "cudarc",
        }
    }
}

/// In a child: times the first use asked for and prints `ns <N>` (or `error <message>`).
pub(crate) fn child(what: &str) -> ExitCode {
    let Some(load) = Load::ALL.into_iter().find(|l| l.name() == what) else {
        println!("error unknown {CHILD_VARIABLE} {what}");
        return ExitCode::FAILURE;
    };
    let start = Instant::now();
    let outcome: Result<(), String> = match load {
        Load::Entry => cuda_entry::driver_info()
            .map(drop)
            .map_err(|e| e.to_string()),
        Load::Raw => raw_load(),
        Load::Cudarc => std::panic::catch_unwind(|| {
            let mut version: c_int = 0;
            // SAFETY: a valid out-pointer.
            unsafe { cudarc::driver::sys::cuDriverGetVersion(&raw mut version) }
        })
        .map(drop)
        .map_err(|_| "cudarc could not load the driver (see its panic above)".to_owned()),
    };
    let elapsed = start.elapsed();
    match outcome {
        Ok(()) => {
            println!("ns {}", elapsed.as_nanos());
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("error {e}");
            ExitCode::FAILURE
        }
    }
}

fn raw_load() -> Result<(), String> {
    let path = setup::driver_path();
    // SAFETY: the driver library, as cuda-entry opens it.
    let library = unsafe { libloading::Library::new(&path) }.map_err(|e| e.to_string())?;
    // SAFETY: cuDriverGetVersion's signature since CUDA 2.2.
    let get_version = unsafe { library.get::<setup::DriverGetVersion>(c"cuDriverGetVersion") }
        .map_err(|e| e.to_string())?;
    let mut version: c_int = 0;
    // SAFETY: a valid out-pointer.
    let code = unsafe { get_version(&raw mut version) };
    // SAFETY: only the address is looked up.
    let gpa = unsafe { library.get::<setup::GetProcAddressV2>(c"cuGetProcAddress_v2") }
        .map_err(|e| e.to_string())?;
    std::hint::black_box((code, *gpa));
    std::mem::forget(library); // a driver stays loaded, as cuda-entry's does
    Ok(())
}

/// The median nanoseconds of `runs` fresh processes for each kind of first use (interleaved), or
/// the error a child reported.
pub(crate) fn measure(runs: usize) -> Vec<(Load, Result<f64, String>)> {
    let exe = std::env::current_exe().expect("current_exe");
    let mut samples: Vec<(Load, Vec<f64>, Option<String>)> =
        Load::ALL.iter().map(|&l| (l, Vec::new(), None)).collect();
    for _ in 0..runs {
        for (load, times, error) in &mut samples {
            if error.is_some() {
                continue;
            }
            let out = Command::new(&exe).env(CHILD_VARIABLE, load.name()).output();
            let text = match &out {
                Ok(o) => String::from_utf8_lossy(&o.stdout).into_owned(),
                Err(e) => format!("error spawn: {e}"),
            };
            let line = text.lines().last().unwrap_or("error no output");
            match line
                .strip_prefix("ns ")
                .and_then(|n| n.trim().parse::<f64>().ok())
            {
                Some(ns) => times.push(ns),
                None => *error = Some(line.trim_start_matches("error ").to_owned()),
            }
        }
    }
    samples
        .into_iter()
        .map(|(load, mut times, error)| match error {
            Some(e) => (load, Err(e)),
            None => (load, Ok(median(&mut times))),
        })
        .collect()
}

pub(crate) fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}
