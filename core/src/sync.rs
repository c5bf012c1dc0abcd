//! The synchronisation the crate is built on, in one place so that a loom model (`--cfg loom`)
//! checks the same code that ships: the entry cache and the process's one-time library loads.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicPtr, Ordering};
#[cfg(loom)]
pub(crate) use loom::sync::{Mutex, MutexGuard};
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicPtr, Ordering};
#[cfg(not(loom))]
pub(crate) use std::sync::{Mutex, MutexGuard};

use std::ptr;

#[cfg(loom)]
pub(crate) use loom::hint::spin_loop;
#[cfg(loom)]
pub(crate) use loom::thread::yield_now;
/// A pause inside a spin-wait.
#[cfg(not(loom))]
pub(crate) use std::hint::spin_loop;
/// Lets another thread run while waiting.
#[cfg(not(loom))]
pub(crate) use std::thread::yield_now;

/// Locks `mutex`, ignoring poisoning: the data it guards is written once, completely, or not at
/// all, so a panic elsewhere never leaves it half-written.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A value initialised once per process and kept for its life (the loaded driver and runtime):
/// racing callers all wait for the one initialisation and get the same `&'static` value.
///
/// The value is leaked on purpose: a library handle that is never dropped keeps every pointer
/// resolved from it valid.
pub(crate) struct Leaked<T: 'static> {
    /// The value once initialised; NULL before. The fast path reads only this.
    ready: AtomicPtr<T>,
    /// Serialises initialisation.
    init: Mutex<()>,
}

impl<T: Send + Sync + 'static> Leaked<T> {
    /// An uninitialised value.
    #[cfg(not(loom))]
    pub(crate) const fn new() -> Self {
        Leaked {
            ready: AtomicPtr::new(ptr::null_mut()),
            init: Mutex::new(()),
        }
    }

    /// An uninitialised value (loom's primitives are not `const`).
    #[cfg(loom)]
    pub(crate) fn new() -> Self {
        Leaked {
            ready: AtomicPtr::new(ptr::null_mut()),
            init: Mutex::new(()),
        }
    }

    /// The value, initialising it with `init` if no caller has yet.
    pub(crate) fn get_or_init(&self, init: impl FnOnce() -> T) -> &'static T {
        if let Some(value) = self.get() {
            return value;
        }
        let _guard = lock(&self.init);
        if let Some(value) = self.get() {
            return value;
        }
        let value: &'static T = Box::leak(Box::new(init()));
        self.ready
            .store(ptr::from_ref(value).cast_mut(), Ordering::Release);
        value
    }

    fn get(&self) -> Option<&'static T> {
        let value = self.ready.load(Ordering::Acquire);
        // SAFETY: non-NULL only once set from a leaked `&'static T` (Release), seen here with
        // Acquire; it is never written again or freed.
        (!value.is_null()).then(|| unsafe { &*value })
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use loom::sync::Arc;
    use loom::sync::atomic::AtomicUsize;

    #[test]
    fn racing_callers_initialise_once_and_agree() {
        loom::model(|| {
            let once = Arc::new(Leaked::<usize>::new());
            let calls = Arc::new(AtomicUsize::new(0));
            let threads: Vec<_> = (0..2)
                .map(|_| {
                    let (once, calls) = (once.clone(), calls.clone());
                    loom::thread::spawn(move || {
                        *once.get_or_init(|| calls.fetch_add(1, Ordering::SeqCst) + 40)
                    })
                })
                .collect();
            let here = *once.get_or_init(|| calls.fetch_add(1, Ordering::SeqCst) + 40);
            for t in threads {
                assert_eq!(t.join().unwrap(), here);
            }
            assert_eq!(calls.load(Ordering::SeqCst), 1);
            assert_eq!(here, 40);
        });
    }
}
