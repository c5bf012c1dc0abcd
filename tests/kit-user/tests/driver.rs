//! The library's tests, on the simulated driver: no GPU needed. Each configuration runs in a
//! child process of its own (`in_child`): a process loads one driver.

use cuda_entry::types::CUresult;
use cuda_entry::{Bootstrap, ErrorKind};
use cuda_entry_sim::{Config, Driver, Mode, Runtime, RuntimeMode, When, in_child};

#[test]
fn data_round_trips_through_device_memory() {
    in_child(&Config::new(), || {
        assert_eq!(kit_user::device_count().expect("one device"), 1);
        let data = [1.0, 2.5, -3.0, 4.25];
        assert_eq!(kit_user::round_trip(&data).expect("round trip"), data);
        // The 3.2 ABI was reached, the one the declarations were written from.
        assert_eq!(cuda_entry_sim::calls("cuMemAlloc_v2"), 1);
        assert_eq!(cuda_entry_sim::calls("cuMemAlloc"), 0);
        assert_eq!(cuda_entry_sim::last_call(), "cuMemcpyDtoH_v2");
        assert!(cuda_entry_sim::unsupported_calls().is_empty());
    });
}

#[test]
fn context_parameters_need_a_12_5_driver() {
    in_child(&Config::new().version(12040), || {
        assert!(!kit_user::has_context_parameters());
        // Refused before asking: the driver was never queried for it.
        assert_eq!(cuda_entry_sim::calls("cuGetProcAddress_v2"), 0);
    });
    in_child(&Config::new().version(13000), || {
        assert!(kit_user::has_context_parameters());
        assert_eq!(cuda_entry_sim::calls("cuGetProcAddress_v2"), 1);
    });
}

#[test]
fn the_stub_library_is_reported_not_called() {
    in_child(
        &Config::new().mode(Mode::Stub),
        || match kit_user::device_count() {
            Err(error) => assert!(
                matches!(error.kind(), ErrorKind::StubLibrary { .. }),
                "{error}"
            ),
            other => panic!("{other:?}"),
        },
    );
}

#[test]
fn a_function_the_simulator_lacks_is_named() {
    in_child(&Config::new(), || {
        let error = kit_user::fill(0x1000_0000, 7, 4).expect_err("not supported");
        assert_eq!(
            error.driver_status(),
            Some(CUresult::ERROR_NOT_SUPPORTED.0),
            "{error}"
        );
        let unsupported = cuda_entry_sim::unsupported_calls();
        assert_eq!(unsupported.len(), 1);
        assert_eq!(unsupported[0].name, "cuMemsetD2D32_v2");
    });
}

#[test]
fn an_11x_driver_is_asked_through_the_four_argument_query() {
    in_child(&Config::new().driver(Driver::Cuda11x), || {
        let info = cuda_entry::driver_info().expect("loads");
        assert_eq!(info.version, 11080);
        assert_eq!(info.bootstrap, Bootstrap::GetProcAddress);
        assert_eq!(kit_user::device_count().expect("one device"), 1);
        assert_eq!(cuda_entry_sim::calls("cuGetProcAddress"), 2);
        assert_eq!(cuda_entry_sim::calls("cuGetProcAddress_v2"), 0);
    });
}

#[test]
fn the_runtime_resolves_through_cuda_get_driver_entry_point_by_version() {
    in_child(&Config::new().runtime(Runtime::Current), || {
        assert!(kit_user::runtime_resolves_mem_alloc());
        let runtime = cuda_entry_sim::runtime().expect("installed");
        assert_eq!(runtime.calls("cudaGetDriverEntryPointByVersion"), 1);
        assert_eq!(cuda_entry_sim::calls("cuGetProcAddress_v2"), 0);
    });
}

#[test]
fn every_runtime_mode_the_kit_names_is_one_the_runtime_accepts() {
    for mode in [
        RuntimeMode::Normal,
        RuntimeMode::UnwrittenStatus,
        RuntimeMode::NullSuccess,
        RuntimeMode::Rc(999),
    ] {
        let config = Config::new().runtime(Runtime::Current).runtime_mode(mode);
        in_child(&config, || {
            assert!(cuda_entry_sim::runtime().is_some());
        });
    }
}

#[test]
fn an_allocation_out_of_memory_releases_the_cache_and_retries() {
    // cuMemAlloc answers CUDA_ERROR_OUT_OF_MEMORY (2) on its first call only.
    in_child(
        &Config::new().inject("cuMemAlloc", 2, When::Call(1)),
        || {
            let mut released = 0;
            let dptr = kit_user::alloc_with_retry(1 << 20, || released += 1).expect("the retry");
            assert_ne!(dptr, 0);
            assert_eq!(released, 1);
            assert_eq!(cuda_entry_sim::calls("cuMemAlloc_v2"), 2);
        },
    );
    // Out of memory twice: the second is the caller's error.
    in_child(&Config::new().inject("cuMemAlloc", 2, When::Always), || {
        let error = kit_user::alloc_with_retry(1 << 20, || {}).expect_err("out of memory");
        assert_eq!(error.driver_status(), Some(2), "{error}");
        assert_eq!(cuda_entry_sim::calls("cuMemAlloc_v2"), 2);
    });
}
