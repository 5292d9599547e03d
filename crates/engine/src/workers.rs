//! The threads a search's parallel parts run on: one pool, one thread per core, made once per
//! process, so a search spawns no thread (a fresh thread costs a stack and fresh allocator
//! pages the kernel must zero). Owns scheduling only, no search logic.

use std::sync::OnceLock;

use rayon::{ThreadPool, ThreadPoolBuilder};

fn pool() -> &'static ThreadPool {
    static POOL: OnceLock<ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        ThreadPoolBuilder::new()
            .num_threads(cores)
            .thread_name(|i| format!("search-{i}"))
            .build()
            .expect("the search threads can be started")
    })
}

/// Runs `beside` on a search thread while `work` runs on the calling thread; both results.
pub fn beside<A, RA, RB>(beside: A, work: impl FnOnce() -> RB) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    RA: Send,
{
    let mut found = None;
    let done = pool().in_place_scope(|scope| {
        scope.spawn(|_| found = Some(beside()));
        work()
    });
    (found.expect("a scope waits for what it spawned"), done)
}

/// `work` applied to every item, the first on the calling thread and the others on the search
/// threads (so a search wakes one thread fewer); results in item order.
pub fn map_each<T, R>(items: Vec<T>, work: impl Fn(T) -> R + Sync + Send) -> Vec<R>
where
    T: Send,
    R: Send,
{
    let mut results: Vec<Option<R>> = items.iter().map(|_| None).collect();
    let mut items = items.into_iter();
    let (Some(first), Some((first_result, other_results))) =
        (items.next(), results.split_first_mut())
    else {
        return Vec::new();
    };
    let work = &work;
    pool().in_place_scope(|scope| {
        for (item, result) in items.zip(other_results) {
            scope.spawn(move |_| *result = Some(work(item)));
        }
        *first_result = Some(work(first));
    });
    results
        .into_iter()
        .map(|result| result.expect("a scope waits for what it spawned"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_their_order_and_both_sides_run() {
        assert_eq!(
            map_each((0..50).collect(), |i: u32| i * 2),
            (0..50).map(|i| i * 2).collect::<Vec<_>>()
        );
        assert_eq!(map_each(Vec::<u32>::new(), |i| i), Vec::<u32>::new());
        assert_eq!(map_each(vec![7], |i: u32| i + 1), vec![8]);
        assert_eq!(beside(|| 1, || "two"), (1, "two"));
    }
}
