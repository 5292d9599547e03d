//! Work over a list spread on the machine's cores: one scoped thread per core, items handed out
//! one at a time (so a few large items do not leave a core idle). Owns scheduling only; what is
//! done to an item, and how its result travels, is the caller's.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `work(i, item)` for every item of `items` on up to one thread per core; the first
/// error a thread meets ends that thread and is returned (the others finish their items).
pub(crate) fn try_each_on_cores<T: Sync, E: Send>(
    items: &[T],
    work: impl Fn(usize, &T) -> Result<(), E> + Sync,
) -> Result<(), E> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let next = AtomicUsize::new(0);
    let (next, work) = (&next, &work);
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..cores.min(items.len()))
            .map(|_| {
                scope.spawn(move || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else {
                        return Ok(());
                    };
                    work(i, item)?;
                })
            })
            .collect();
        threads
            .into_iter()
            .try_for_each(|thread| thread.join().expect("a worker thread panicked"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn every_item_is_worked_once_and_an_error_comes_back() {
        let seen = Mutex::new(Vec::new());
        let items: Vec<u32> = (0..100).collect();
        try_each_on_cores(&items, |i, item| {
            seen.lock().unwrap().push((i, *item));
            Ok::<(), ()>(())
        })
        .unwrap();
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        assert_eq!(seen, (0..100).map(|i| (i as usize, i)).collect::<Vec<_>>());
        let failed = try_each_on_cores(
            &items,
            |_, item| if *item == 42 { Err(*item) } else { Ok(()) },
        );
        assert_eq!(failed, Err(42));
        assert_eq!(try_each_on_cores(&[] as &[u32], |_, _| Err(())), Ok(()));
    }
}
