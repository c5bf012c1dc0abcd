//! `RUSTFLAGS="--cfg loom" cargo test -p cuda-entry --lib loom --release`
use super::*;
use loom::sync::Arc;
use loom::sync::atomic::AtomicUsize;

fn fake(n: usize) -> NonNull<c_void> {
    NonNull::new(std::ptr::without_provenance_mut(n)).expect("non-zero")
}

fn resolve_faked(
    entry: &Entry,
    asked: &AtomicUsize,
    answer: Result<usize, ()>,
) -> Result<NonNull<c_void>, Error> {
    entry.cached().map_or_else(
        || {
            entry.resolve_with(|request| {
                let n = asked.fetch_add(1, Ordering::SeqCst);
                answer.map(|a| fake(a + n)).map_err(|()| {
                    let kind = crate::ErrorKind::SymbolNotFound;
                    Error::new(kind, Some(request), Some(13000))
                })
            })
        },
        Ok,
    )
}

fn race(answer: Result<usize, ()>) {
    loom::model(move || {
        let entry = Arc::new(Entry::new(c"cuMemAlloc", 3020, Stream::Legacy));
        let asked = Arc::new(AtomicUsize::new(0));
        let other = {
            let (entry, asked) = (entry.clone(), asked.clone());
            loom::thread::spawn(move || {
                resolve_faked(&entry, &asked, answer).map(|p| p.as_ptr() as usize)
            })
        };
        let here = resolve_faked(&entry, &asked, answer).map(|p| p.as_ptr() as usize);
        let there = other.join().unwrap();
        assert_eq!(here, there, "both threads see the same outcome");
        assert_eq!(asked.load(Ordering::SeqCst), 1, "resolved once");
        let again = resolve_faked(&entry, &asked, answer).map(|p| p.as_ptr() as usize);
        assert_eq!(again, here, "and it stays cached");
    });
}

#[test]
fn racing_first_calls_resolve_once() {
    race(Ok(0x1000));
}

#[test]
fn racing_first_calls_cache_one_error() {
    race(Err(()));
}

#[test]
fn a_preload_racing_calls_resolves_each_entry_once() {
    loom::model(|| {
        let entries = Arc::new([
            Entry::new(c"cuMemAlloc", 3020, Stream::Legacy),
            Entry::new(c"cuMemFree", 3020, Stream::Legacy),
        ]);
        let asked = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
        let preload = {
            let (entries, asked) = (entries.clone(), asked.clone());
            loom::thread::spawn(move || {
                (0..2)
                    .map(|i| {
                        resolve_faked(&entries[i], &asked[i], Ok(0x1000 * (i + 1)))
                            .map(|p| p.as_ptr() as usize)
                    })
                    .collect::<Vec<_>>()
            })
        };
        let call = resolve_faked(&entries[1], &asked[1], Ok(0x2000)).map(|p| p.as_ptr() as usize);
        let preloaded = preload.join().unwrap();
        assert_eq!(preloaded[1], call);
        assert_eq!(preloaded[0], Ok(0x1000));
        for a in asked.iter() {
            assert_eq!(a.load(Ordering::SeqCst), 1);
        }
    });
}

#[test]
fn a_batch_that_wakes_once_at_the_end_never_strands_a_waiter() {
    // The batch publishes each entry without waking; a caller waiting on one of them must still
    // be woken (loom has no wait slice: a missed wake-up is a deadlock it reports).
    loom::model(|| {
        let entries = Arc::new([
            Entry::new(c"cuMemAlloc", 3020, Stream::Legacy),
            Entry::new(c"cuMemFree", 3020, Stream::Legacy),
        ]);
        let batch = {
            let entries = entries.clone();
            loom::thread::spawn(move || {
                let outcomes: Vec<_> = (0..2)
                    .map(|i| {
                        let answer = |_| Ok(fake(0x1000 * (i + 1)));
                        entries[i]
                            .resolve_once(answer, Wake::Later)
                            .map(|p| p.as_ptr() as usize)
                    })
                    .collect();
                crate::sync::wake_waiters();
                outcomes
            })
        };
        let call = entries[0]
            .resolve_with(|_| Ok(fake(0x1000)))
            .map(|p| p.as_ptr() as usize);
        assert_eq!(call, Ok(0x1000));
        assert_eq!(batch.join().unwrap(), vec![Ok(0x1000), Ok(0x2000)]);
    });
}
